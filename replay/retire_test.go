package replay

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// writeDistinct writes n combined lines 10ms apart, each from its own address:
// many short-lived keys, none refused.
func writeDistinct(w io.Writer, n int) {
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i := range n {
		at := start.Add(time.Duration(i) * 10 * time.Millisecond)
		fmt.Fprintf(w, "10.%d.%d.%d - - [%s] \"GET /x HTTP/1.1\" 200 5 \"-\" \"c\"\n",
			i>>16&255, i>>8&255, i&255, at.Format("02/Jan/2006:15:04:05 -0700"))
	}
}

// TestMemoryFlatWithDistinctKeys: live heap during a replay of short-lived,
// never-refused keys depends on the keys live at once, not on the lines: four
// times the lines stay well within 1.5 times the heap (it grew 4x when every
// key seen was kept). The heap is read after a GC every 5,000 lines, and each
// run is weighed by the median of its reads in its second half, once the
// keys live at once have settled: a read's noise (the pipeline's buffers in
// flight) then weighs alike in runs of few reads and of many.
func TestMemoryFlatWithDistinctKeys(t *testing.T) {
	settledHeap := func(lines int) uint64 {
		var log bytes.Buffer
		writeDistinct(&log, lines)
		heap := func() uint64 {
			var m runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&m)
			return m.HeapAlloc
		}
		base := heap() // the log itself
		var reads []uint64
		opts := Options{Limits: []Limit{mustLimit(t, "key=ip limit=100/1m burst=20")}, Format: "combined",
			ProgressEvery: 5_000, Progress: func(done, _ int64) {
				if done > int64(lines/2) {
					reads = append(reads, heap()-base)
				}
			}}
		res, err := Replay(context.Background(), []Input{{Name: "distinct", R: bytes.NewReader(log.Bytes())}}, opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.Keys != lines || res.Limits[0].Keys != lines {
			t.Fatalf("%d lines: %d keys (%d under the limit), want %d", lines, res.Keys, res.Limits[0].Keys, lines)
		}
		if len(reads) == 0 {
			t.Fatalf("%d lines: no read of the heap in the second half", lines)
		}
		slices.Sort(reads)
		return reads[len(reads)/2]
	}
	small, large := settledHeap(50_000), settledHeap(200_000)
	t.Logf("settled live heap: %d B for 50 000 lines, %d B for 200 000", small, large)
	if float64(large) > 1.5*float64(small) {
		t.Errorf("settled live heap %d B for 200 000 lines, %d B for 50 000: want at most 1.5x", large, small)
	}
}

// TestRetiredKeyReturns: a key idle for retireAfter and back is a new episode
// for the peak distribution (and the text says a returning key counts again),
// but a refused key keeps its name and figures across episodes: refusals add
// up and its peak is the largest of them.
func TestRetiredKeyReturns(t *testing.T) {
	l := mustLimit(t, "key=ip limit=2/1m burst=2")
	after := retireAfter(l.Policy)
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var log bytes.Buffer
	line := func(ip string, at time.Duration) {
		fmt.Fprintf(&log, "%s - - [%s] \"GET /x HTTP/1.1\" 200 5 \"-\" \"c\"\n", ip, start.Add(at).Format("02/Jan/2006:15:04:05 -0700"))
	}
	// 192.0.2.1 sends 5 at once (3 refused), idles, then 4 at once (2 refused);
	// 192.0.2.2 sends one, idles, and sends one again, never refused.
	for range 5 {
		line("192.0.2.1", 0)
	}
	line("192.0.2.2", 0)
	back := after + time.Minute
	for range 4 {
		line("192.0.2.1", back)
	}
	line("192.0.2.2", back)
	line("192.0.2.3", back+after+time.Minute) // retires the others before the end
	res, err := Replay(context.Background(), []Input{{Name: "returns", R: &log}}, Options{Limits: []Limit{l}, Lanes: []string{"gcra"}, Format: "combined"})
	if err != nil {
		t.Fatal(err)
	}
	lr := res.Limits[0]
	if lr.Keys != 5 || lr.PeakMax != 5 || lr.PeakP50 != 1 {
		t.Errorf("keys %d, peak p50 %d max %d; want 5 episodes, p50 1, max 5", lr.Keys, lr.PeakP50, lr.PeakMax)
	}
	lane := lr.Lanes[0]
	want := KeyCount{Key: "192.0.2.1", Refused: 5, Peak: 5}
	if lane.KeysRefused != 1 || len(lane.Top) != 1 || lane.Top[0] != want {
		t.Errorf("keys refused %d, top %+v; want 1, [%+v]", lane.KeysRefused, lane.Top, want)
	}
	var text bytes.Buffer
	if err := WriteText(&text, res); err != nil {
		t.Fatal(err)
	}
	if note := fmt.Sprintf("5 keys (a key back after %v idle counts again)", after); !strings.Contains(text.String(), note) {
		t.Errorf("text lacks %q:\n%s", note, text.String())
	}

	// Without a retirement, the count is the distinct keys and says nothing more.
	short := "192.0.2.1 - - [01/Mar/2026:09:00:00 +0000] \"GET /x HTTP/1.1\" 200 5 \"-\" \"c\"\n" +
		"192.0.2.2 - - [01/Mar/2026:09:00:01 +0000] \"GET /x HTTP/1.1\" 200 5 \"-\" \"c\"\n" +
		"192.0.2.1 - - [01/Mar/2026:09:00:02 +0000] \"GET /x HTTP/1.1\" 200 5 \"-\" \"c\"\n"
	res, err = Replay(context.Background(), []Input{{Name: "short", R: strings.NewReader(short)}}, Options{Limits: []Limit{l}, Format: "combined"})
	if err != nil {
		t.Fatal(err)
	}
	text.Reset()
	if err := WriteText(&text, res); err != nil {
		t.Fatal(err)
	}
	if res.Limits[0].Keys != 2 || !strings.Contains(text.String(), ": 2 keys; ") {
		t.Errorf("short log: %d keys, text:\n%s\nwant \": 2 keys; \"", res.Limits[0].Keys, text.String())
	}
}

// TestRetireAfter: two windows, plus burst + 2 emission intervals rounded up
// to the nanosecond (the figure docs/replay.md quotes for 100/1m burst 20).
func TestRetireAfter(t *testing.T) {
	for _, c := range []struct {
		limit string
		want  time.Duration
	}{
		{"key=ip limit=100/1m burst=20", 2*time.Minute + 22*600*time.Millisecond},
		{"key=ip limit=3/1s burst=2", 2*time.Second + 4*333_333_334},
		{"key=ip limit=1/1ns burst=1", 2 + 3},
	} {
		if got := retireAfter(mustLimit(t, c.limit).Policy); got != c.want {
			t.Errorf("retireAfter(%s) = %v, want %v", c.limit, got, c.want)
		}
	}
}

// TestRetirementKeepsDecisions: on a log whose keys come and go (retired and
// back many times) and whose lines are up to 3s out of order, every lane's
// verdicts and every key's refusals equal those of a lane that keeps every
// key's state for the whole log, fed the lines in time order.
func TestRetirementKeepsDecisions(t *testing.T) {
	l := mustLimit(t, "key=ip limit=3/1s burst=2")
	rng := rand.New(rand.NewPCG(3, 4))
	start := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var log bytes.Buffer
	var ips []string
	var ats []time.Duration
	for i := range 20_000 {
		at := time.Duration(i/20) * time.Second
		if rng.IntN(10) == 0 && at >= 3*time.Second {
			at -= time.Duration(1+rng.IntN(3)) * time.Second
		}
		ip := fmt.Sprintf("192.0.2.%d", rng.IntN(40))
		if rng.IntN(4) == 0 {
			ip = "192.0.2.250"
		}
		ips, ats = append(ips, ip), append(ats, at)
		fmt.Fprintf(&log, "%s - - [%s] \"GET /x HTTP/1.1\" 200 5 \"-\" \"c\"\n", ip, start.Add(at).Format("02/Jan/2006:15:04:05 -0700"))
	}
	res, err := Replay(context.Background(), []Input{{Name: "churn", R: &log}},
		Options{Limits: []Limit{l}, Format: "combined", Verdicts: true, Top: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != int64(len(ips)) {
		t.Fatalf("%d requests replayed, want all %d", res.Requests, len(ips))
	}
	if res.retired < 1000 {
		t.Fatalf("%d retirements, want keys retired and back many times", res.retired)
	}
	order := make([]int, len(ips))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(ats[a], ats[b]) })
	for _, lane := range res.Limits[0].Lanes {
		d, err := newDecider(lane.Lane, l.Policy)
		if err != nil {
			t.Fatal(err)
		}
		ids := map[string]int32{}
		refused := map[string]int64{}
		for i, line := range order {
			ip := ips[line]
			id, ok := ids[ip]
			if !ok {
				id = int32(len(ids))
				ids[ip] = id
			}
			v, _ := d.decide(id, ats[line])
			if uint8(v) != lane.Verdicts[i] {
				t.Fatalf("%s: request %d (line %d, %s at %v): verdict %d, want %d", lane.Lane, i, line+1, ip, ats[line], lane.Verdicts[i], v)
			}
			if v == algorithms.Refuse {
				refused[ip]++
			}
		}
		if lane.KeysRefused != len(refused) || len(lane.Top) != len(refused) {
			t.Errorf("%s: %d keys refused (%d listed), want %d", lane.Lane, lane.KeysRefused, len(lane.Top), len(refused))
		}
		for _, k := range lane.Top {
			if k.Refused != refused[k.Key] {
				t.Errorf("%s: %s refused %d, want %d", lane.Lane, k.Key, k.Refused, refused[k.Key])
			}
		}
	}
}
