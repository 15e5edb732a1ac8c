package replay

import (
	"bytes"
	"context"
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"
)

// lineAt writes one request from ip at t in format: combined, json (RFC 3339),
// json-local (zoneless, read in UTC), json-unix (Unix seconds) or csv (after
// the header csvHeader).
func lineAt(format string, t time.Time, ip string) string {
	switch format {
	case "combined":
		return fmt.Sprintf(`%s - - [%s] "GET /a HTTP/1.1" 200 1 "-" "x"`, ip, t.Format("02/Jan/2006:15:04:05 -0700"))
	case "json":
		return fmt.Sprintf(`{"time":%q,"ip":%q,"method":"GET","path":"/a"}`, t.Format(time.RFC3339Nano), ip)
	case "json-local":
		return fmt.Sprintf(`{"time":%q,"ip":%q,"method":"GET","path":"/a"}`, t.UTC().Format("2006-01-02 15:04:05.999999999"), ip)
	case "json-unix":
		return fmt.Sprintf(`{"time":%d,"ip":%q,"method":"GET","path":"/a"}`, t.Unix(), ip)
	case "csv":
		return fmt.Sprintf("%s,%s,GET,/a", t.Format(time.RFC3339Nano), ip)
	}
	panic("lineAt: unknown format " + format)
}

const csvHeader = "time,ip,method,path"

func replayLines(t *testing.T, format string, lines []string, opts Options) *Result {
	t.Helper()
	var log strings.Builder
	if format == "csv" {
		log.WriteString(csvHeader + "\n")
	}
	for _, l := range lines {
		log.WriteString(l + "\n")
	}
	if opts.Limits == nil {
		opts.Limits = []Limit{mustLimit(t, "key=ip limit=10/1m burst=10")}
	}
	res, err := Replay(context.Background(), []Input{{Name: format + ".log", R: strings.NewReader(log.String())}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestTimesOutsideTheYearsAreBadLines: a line dated outside the years int64
// nanoseconds since 1970 hold, in every format and layout replay reads, is a
// bad line naming its file, line and year (it panicked, or read the year 1000
// as 2169, before); the line before it replays as usual.
func TestTimesOutsideTheYearsAreBadLines(t *testing.T) {
	ok := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	tests := []struct {
		at   time.Time
		want string // in the problem
	}{
		{time.Date(1, 3, 1, 9, 0, 0, 0, time.UTC), "year 1 UTC is outside the years 1678 to 2261"},
		{time.Date(1000, 3, 1, 9, 0, 0, 0, time.UTC), "year 1000 UTC is outside"},
		{time.Date(1677, 9, 21, 0, 12, 44, 0, time.UTC), "year 1677 UTC is outside"}, // int64 holds it; its hour does not
		{time.Date(1678, 1, 1, 0, 30, 0, 0, time.FixedZone("", 3600)), "year 1677 UTC is outside"},
		{time.Date(2262, 1, 1, 0, 0, 0, 0, time.UTC), "year 2262 UTC is outside"},
		{time.Date(2262, 4, 12, 0, 0, 0, 0, time.UTC), "year 2262 UTC is outside"},
		{time.Date(2300, 3, 1, 9, 0, 0, 0, time.UTC), "year 2300 UTC is outside"},
		{time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC), "year 9999 UTC is outside"},
	}
	for _, format := range []string{"combined", "json", "json-local", "json-unix", "csv"} {
		for _, tt := range tests {
			if format == "json-unix" && tt.at.Year() < 1970 {
				continue // Unix seconds are not negative
			}
			t.Run(fmt.Sprintf("%s/%s", format, tt.at.Format(time.RFC3339Nano)), func(t *testing.T) {
				want := tt.want
				if format == "json-unix" {
					want = "a year after 2261 is outside the years 1678 to 2261"
				}
				res := replayLines(t, format, []string{lineAt(format, ok, "192.0.2.1"), lineAt(format, tt.at, "192.0.2.1")}, Options{})
				line := int64(2)
				if format == "csv" {
					line = 3
				}
				if res.Requests != 1 || res.Bad != 1 || res.TooLate != 0 || len(res.Shown) != 1 {
					t.Fatalf("requests %d, bad %d, too late %d, shown %v; want 1, 1, 0 and the line", res.Requests, res.Bad, res.TooLate, res.Shown)
				}
				if b := res.Shown[0]; b.File != format+".log" || b.Line != line || !strings.Contains(b.Problem, want) {
					t.Errorf("bad line %s, want %s.log:%d: ...%s...", b, format, line, want)
				}
				if !res.Origin.Equal(ok) || !res.Last.Equal(ok) {
					t.Errorf("replayed from %v to %v, want %v alone", res.Origin, res.Last, ok)
				}
			})
		}
	}
}

// burstAt is the same traffic at any instant: 30 requests in one second from
// one address, and one a second for 10s from another.
func burstAt(format string, t0 time.Time) []string {
	var lines []string
	for range 30 {
		lines = append(lines, lineAt(format, t0, "192.0.2.1"))
	}
	for s := range 10 {
		lines = append(lines, lineAt(format, t0.Add(time.Duration(s)*time.Second), "192.0.2.2"))
	}
	return lines
}

// TestExtremeYearsReplayLikeAnyOther: the same traffic at the first instant
// replay reads, before 1970 (negative ns, an hour's start below the time), across
// the epoch and in the last minutes of 2261 replays exactly as it does in 2026,
// minute for minute (before, 1678 and 1969 panicked on a negative minute index).
func TestExtremeYearsReplayLikeAnyOther(t *testing.T) {
	for _, format := range []string{"combined", "json", "csv"} {
		for _, at := range []time.Time{
			time.Date(1678, 1, 1, 0, 0, 0, 0, time.UTC),
			time.Date(1678, 3, 1, 9, 30, 0, 0, time.UTC),
			time.Date(1969, 12, 31, 23, 59, 55, 0, time.UTC),
			time.Date(2261, 12, 31, 23, 58, 0, 0, time.UTC),
		} {
			t.Run(format+"/"+at.Format(time.RFC3339), func(t *testing.T) {
				ref := time.Date(2026, 3, 1, 9, at.Minute(), at.Second(), 0, time.UTC)
				want := replayLines(t, format, burstAt(format, ref), Options{})
				got := replayLines(t, format, burstAt(format, at), Options{})
				if got.Requests != 40 || got.Bad != 0 {
					t.Fatalf("requests %d, bad %d (%v); want 40 and 0", got.Requests, got.Bad, got.Shown)
				}
				if hour := at.Truncate(time.Hour); !got.Origin.Equal(hour) {
					t.Errorf("origin %v, want %v", got.Origin, hour)
				}
				if !reflect.DeepEqual(got.Limits, want.Limits) {
					t.Errorf("at %v:\n%+v\nwant as at %v:\n%+v", at, got.Limits, ref, want.Limits)
				}
			})
		}
	}
}

// TestLogJumpingByDecades: a burst every 25 years replays as each would alone
// (refusals add up, every key back after decades is a new episode), the
// series of refusals by minute is given sparsely rather than as 52 million
// counters (a dense series of 140 years took 24 GB before), a line that would
// make the log span more than 100 years is a bad line saying so, and one
// decades behind is too late.
func TestLogJumpingByDecades(t *testing.T) {
	years := []int{1970, 1995, 2020, 2045, 2069}
	var lines []string
	for _, y := range years {
		lines = append(lines, burstAt("combined", time.Date(y, 3, 1, 9, 0, 0, 0, time.UTC))...)
	}
	lines = append(lines,
		lineAt("combined", time.Date(2070, 3, 1, 9, 0, 0, 0, time.UTC), "192.0.2.3"), // 100 years and 25 leap days
		lineAt("combined", time.Date(2000, 3, 1, 9, 0, 0, 0, time.UTC), "192.0.2.3"))
	res := replayLines(t, "combined", lines, Options{})
	one := replayLines(t, "combined", burstAt("combined", time.Date(1970, 3, 1, 9, 0, 0, 0, time.UTC)), Options{})
	n := int64(len(years))
	if res.Requests != 40*n || res.Bad != 1 || res.TooLate != 1 {
		t.Fatalf("requests %d, bad %d, too late %d; want %d, 1, 1", res.Requests, res.Bad, res.TooLate, 40*n)
	}
	if b := res.Shown[0]; b.Line != int64(len(lines)-1) || !strings.Contains(b.Problem, "2070-03-01T09:00:00Z is more than 100 years after the log's first hour, 1970-03-01T09:00:00Z") {
		t.Errorf("bad line %s, want line %d more than 100 years after 1970-03-01T09:00:00Z", b, len(lines)-1)
	}
	if figs, err := Plots(res, nil); err != nil || len(figs["timeline.png"]) == 0 {
		t.Errorf("plots: %v", err) // a point per minute with a refusal, not per minute of 99 years
	}
	if res.Keys != 2*len(years) {
		t.Errorf("%d key episodes, want %d (each key back after decades counts again)", res.Keys, 2*len(years))
	}
	for i, lane := range res.Limits[0].Lanes {
		alone := one.Limits[0].Lanes[i]
		if lane.Refused != n*alone.Refused || lane.KeysRefused != alone.KeysRefused || lane.Delayed != n*alone.Delayed {
			t.Errorf("%s: refused %d (keys %d, delayed %d), want %d times %d (keys %d, delayed %d)", lane.Lane,
				lane.Refused, lane.KeysRefused, lane.Delayed, n, alone.Refused, alone.KeysRefused, alone.Delayed)
		}
		if alone.Refused == 0 {
			continue
		}
		if len(lane.ByMinute) != 0 || len(lane.ByMinuteSparse) != len(years) {
			t.Errorf("%s: %d minutes dense, %d sparse; want none dense and one sparse per burst", lane.Lane, len(lane.ByMinute), len(lane.ByMinuteSparse))
		}
		if len(lane.ByHour) != 0 || len(lane.ByHourSparse) != len(years) {
			t.Errorf("%s: %d hours dense, %d sparse; want none dense and one sparse per burst", lane.Lane, len(lane.ByHour), len(lane.ByHourSparse))
		}
		var sum int64
		for i, p := range lane.ByMinuteSparse {
			sum += p[1] - lane.ByHourSparse[i][1]
		}
		if sum != 0 {
			t.Errorf("%s: refusals by minute and by hour differ by %d", lane.Lane, sum)
		}
	}
}

// TestTooLateLineMakesNoKey: a line too late to replay is no key episode
// (before, a too-late line from a new address counted as one more key).
func TestTooLateLineMakesNoKey(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	res := replayLines(t, "combined", []string{lineAt("combined", t0, "192.0.2.1"),
		lineAt("combined", t0.Add(20*time.Second), "192.0.2.2"), lineAt("combined", t0.Add(time.Second), "192.0.2.3")}, Options{})
	if res.TooLate != 1 || res.Keys != 2 {
		t.Errorf("too late %d, keys %d; want 1 and 2", res.TooLate, res.Keys)
	}
}

// TestLateLongerThanAnyLog: a --late as long as a Duration goes places every
// line without overflow.
func TestLateLongerThanAnyLog(t *testing.T) {
	t0 := time.Date(1700, 3, 1, 9, 0, 0, 0, time.UTC)
	lines := append(burstAt("combined", t0.AddDate(90, 0, 0)), burstAt("combined", t0)...)
	res := replayLines(t, "combined", lines, Options{Late: 1<<63 - 1})
	if res.Requests != 80 || res.TooLate != 0 || res.Bad != 0 || !res.Origin.Equal(t0) {
		t.Errorf("requests %d, too late %d, bad %d, origin %v; want 80, 0, 0, %v", res.Requests, res.TooLate, res.Bad, res.Origin, t0)
	}
}

// oneInstant writes n combined lines all stamped with the same second, from
// 1024 addresses in turn.
func oneInstant(n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "10.0.%d.%d - - [01/Mar/2026:09:00:00 +0000] \"GET /x HTTP/1.1\" 200 5 \"-\" \"c\"\n", i/256%4, i%256) // 1024 addresses
	}
	return b.Bytes()
}

// TestReorderHoldsAtMostMax: lines that share an instant stream through a
// full buffer (before, every one waited until the log moved on by --late), in
// order, none refused, and the buffer never holds more than max.
func TestReorderHoldsAtMostMax(t *testing.T) {
	q := reorder{late: int64(5 * time.Second), max: MaxReorder}
	var next int64
	const more = 10_000
	for i := range MaxReorder + more {
		if !q.push(event{at: 42, seq: int64(i)}) {
			t.Fatalf("line %d refused", i)
		}
		for e, ok := q.pop(false); ok; e, ok = q.pop(false) {
			if e.seq != next {
				t.Fatalf("released %d, want %d", e.seq, next)
			}
			next++
		}
	}
	if q.high > MaxReorder || next != more+1 {
		t.Errorf("held at most %d, released %d before the end; want at most %d and %d", q.high, next, MaxReorder, more+1)
	}
	for e, ok := q.pop(true); ok; e, ok = q.pop(true) {
		if e.seq != next {
			t.Fatalf("at the end, released %d, want %d", e.seq, next)
		}
		next++
	}
	if next != MaxReorder+more {
		t.Errorf("released %d in all, want %d", next, MaxReorder+more)
	}
}

// TestReorderLines: the buffer's bound in lines keeps it within
// MaxReorderBytes, however many limits (a --vary of 10 000 values).
func TestReorderLines(t *testing.T) {
	for _, tt := range []struct{ limits, want int }{{1, MaxReorder}, {6, MaxReorder}, {10, 838_860}, {10_001, 1675}} {
		got := reorderLines(tt.limits)
		if got != tt.want || got*(40+4*tt.limits) > MaxReorderBytes {
			t.Errorf("reorderLines(%d) = %d, want %d within %d bytes", tt.limits, got, tt.want, MaxReorderBytes)
		}
	}
}

// TestOneInstantStreamsThrough: a log whose lines share one instant replays
// with a bounded buffer exactly as with an unbounded one; a line then behind
// one the full buffer let go is counted as such, and the text says so.
func TestOneInstantStreamsThrough(t *testing.T) {
	log := oneInstant(20_000)
	limits := []Limit{mustLimit(t, "key=ip limit=5/1m burst=5")}
	run := func(max int, extra string) *Result {
		res, err := Replay(context.Background(), []Input{{Name: "one", R: bytes.NewReader(append(log, extra...))}},
			Options{Limits: limits, Format: "combined", reorderMax: max})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	bounded, unbounded := run(1000, ""), run(1<<30, "")
	if bounded.reorderHigh > 1000 || unbounded.reorderHigh != 20_000 {
		t.Errorf("held at most %d with a bound of 1000, %d without; want at most 1000 and 20000", bounded.reorderHigh, unbounded.reorderHigh)
	}
	bounded.reorderHigh = unbounded.reorderHigh
	if !reflect.DeepEqual(bounded, unbounded) {
		t.Errorf("bounded:\n%+v\nunbounded:\n%+v", bounded, unbounded)
	}
	earlier := `10.9.9.9 - - [01/Mar/2026:08:59:59 +0000] "GET /x HTTP/1.1" 200 5 "-" "c"` + "\n"
	if res := run(1<<30, earlier); res.BehindFull != 0 || res.Requests != 20_001 {
		t.Errorf("unbounded: %d behind, %d requests; want 0 and 20001 (the line 1s behind placed)", res.BehindFull, res.Requests)
	}
	res := run(1000, earlier)
	if res.BehindFull != 1 || res.TooLate != 0 || res.Requests != 20_000 {
		t.Errorf("bounded: %d behind the full buffer, %d too late, %d requests; want 1, 0, 20000", res.BehindFull, res.TooLate, res.Requests)
	}
	var text strings.Builder
	if err := WriteText(&text, res); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "1 behind a full reorder buffer") {
		t.Errorf("text lacks the line behind the full buffer:\n%s", text.String())
	}
}

// TestMemoryFlatAtOneInstant: live heap while replaying lines that all share
// one instant depends on the buffer's bound, not the lines: four times the
// lines stay within 1.5 times the heap (it grew with the lines before).
func TestMemoryFlatAtOneInstant(t *testing.T) {
	peakHeap := func(lines int) uint64 {
		log := oneInstant(lines)
		heap := func() uint64 {
			var m runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m)
			return m.HeapAlloc
		}
		base, peak := heap(), uint64(0)
		opts := Options{Limits: []Limit{mustLimit(t, "key=ip limit=100/1m burst=20")}, Format: "combined", Lanes: []string{"gcra"},
			reorderMax: 4096, ProgressEvery: 10_000, Progress: func(int64, int64) { peak = max(peak, heap()-base) }}
		res, err := Replay(context.Background(), []Input{{Name: "one", R: bytes.NewReader(log)}}, opts)
		if err != nil || res.Requests != int64(lines) {
			t.Fatalf("%d lines: %d replayed, %v", lines, res.Requests, err)
		}
		return peak
	}
	small, large := peakHeap(50_000), peakHeap(200_000)
	t.Logf("peak live heap: %d B for 50 000 lines of one instant, %d B for 200 000", small, large)
	if float64(large) > 1.5*float64(small) {
		t.Errorf("peak live heap %d B for 200 000 lines, %d B for 50 000: want at most 1.5x", large, small)
	}
}

// TestManyLimitsSmallBatches: with thousands of limits (a long --vary) a batch
// holds fewer events, its key ids within 8 MiB (batches of 8192 events of 4
// bytes per limit took 80 MB each with 2500 values before, several queued per
// lane), and results do not depend on where batches end.
func TestManyLimitsSmallBatches(t *testing.T) {
	if n := batchLen(2500); n != 838 || n*2500*4 > 8<<20 || batchLen(1) != batchSize || batchLen(1<<30) != 1 {
		t.Fatalf("batchLen(2500) = %d, batchLen(1) = %d, batchLen(2^30) = %d", n, batchLen(1), batchLen(1<<30))
	}
	var log bytes.Buffer
	writeDistinct(&log, 5000)    // 50s of keys that retire within batches
	writeCombined(&log, 3000, 5) // then a minute, hours later
	limits := []Limit{mustLimit(t, "key=ip limit=2/1s burst=2"), mustLimit(t, "key=ip/24 limit=600/1m")}
	s, err := NewSweep("limits[0].burst", []string{"1", "5", "50"}, limits)
	if err != nil {
		t.Fatal(err)
	}
	run := func(batch int) *Result {
		res, err := Replay(context.Background(), []Input{{Name: "g", R: bytes.NewReader(log.Bytes())}},
			Options{Limits: limits, Sweep: s, Verdicts: true, batchMax: batch})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	got, want := shown(run(7)), shown(run(0))
	if want.retired == 0 || want.Limits[0].Lanes[0].Refused == 0 {
		t.Fatalf("%d retired, %d refused: want some of both", want.retired, want.Limits[0].Lanes[0].Refused)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("batches of 7:\n%+v\nof %d:\n%+v", got, batchSize, want)
	}
}
