package replay

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func mustLimit(t testing.TB, s string) Limit {
	t.Helper()
	l, err := ParseLimit(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestReplayCountsRefusals replays a burst from one IP and a trickle from
// another: only the burst is refused, in every lane that refuses.
func TestReplayCountsRefusals(t *testing.T) {
	var log strings.Builder
	for i := range 30 { // 30 requests in the same second from .1
		_ = i
		log.WriteString(`192.0.2.1 - - [01/Mar/2026:10:00:00 +0000] "GET /a HTTP/1.1" 200 1 "-" "x"` + "\n")
	}
	for s := range 10 { // one a second from .2
		log.WriteString(`192.0.2.2 - - [01/Mar/2026:10:00:0` + string(rune('0'+s)) + ` +0000] "GET /b HTTP/1.1" 200 1 "-" "x"` + "\n")
	}
	res, err := Replay(context.Background(), []Input{{Name: "log", R: strings.NewReader(log.String())}},
		Options{Limits: []Limit{mustLimit(t, "key=ip limit=10/1m burst=10")}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Requests != 40 || res.Bad != 0 {
		t.Fatalf("requests %d bad %d, want 40 and 0", res.Requests, res.Bad)
	}
	for _, lane := range res.Limits[0].Lanes {
		want := int64(20)
		if lane.Lane == "leaky_bucket" {
			continue // it delays within its queue: checked below
		}
		if lane.Refused != want || lane.KeysRefused != 1 || lane.Top[0].Key != "192.0.2.1" || lane.Top[0].Peak != 30 {
			t.Errorf("%s: refused %d keys %d top %+v, want %d from 192.0.2.1 alone (peak 30)", lane.Lane, lane.Refused, lane.KeysRefused, lane.Top, want)
		}
	}
}

// TestReorderPlacesLateLines: a line 2s behind is replayed in its place; one
// more than the bound behind the last released is counted as too late.
func TestReorderPlacesLateLines(t *testing.T) {
	tests := []struct {
		name    string
		times   []string
		tooLate int64
	}{
		{"in order", []string{"10:00:00", "10:00:01", "10:00:02"}, 0},
		{"2s late", []string{"10:00:00", "10:00:03", "10:00:01", "10:00:04"}, 0},
		{"beyond the bound", []string{"10:00:00", "10:00:20", "10:00:21", "10:00:01"}, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var log strings.Builder
			for _, ts := range tt.times {
				log.WriteString(`192.0.2.1 - - [01/Mar/2026:` + ts + ` +0100] "GET / HTTP/1.1" 200 1 "-" "x"` + "\n")
			}
			res, err := Replay(context.Background(), []Input{{Name: "log", R: strings.NewReader(log.String())}},
				Options{Limits: []Limit{mustLimit(t, "key=ip limit=1/1s burst=1")}, Late: 5 * time.Second})
			if err != nil {
				t.Fatal(err)
			}
			if res.TooLate != tt.tooLate {
				t.Errorf("too late %d, want %d", res.TooLate, tt.tooLate)
			}
			if got := res.Origin; !got.Equal(time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)) {
				t.Errorf("origin %v, want 09:00 UTC (10:00 +0100)", got)
			}
		})
	}
}

// TestBadLinesCounted: bad lines are counted and the first shown with their
// numbers; Strict makes the first fatal.
func TestBadLinesCounted(t *testing.T) {
	log := "garbage\n" + `192.0.2.1 - - [01/Mar/2026:10:00:00 +0000] "GET / HTTP/1.1" 200 1 "-" "x"` + "\nmore garbage\n"
	opts := Options{Limits: []Limit{mustLimit(t, "key=ip limit=1/1s")}, Format: "combined"}
	res, err := Replay(context.Background(), []Input{{Name: "a.log", R: strings.NewReader(log)}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Bad != 2 || len(res.Shown) != 2 || res.Shown[0].Line != 1 || res.Shown[1].Line != 3 {
		t.Errorf("bad %d shown %v, want lines 1 and 3", res.Bad, res.Shown)
	}
	auto := opts
	auto.Format = "auto"
	res, err = Replay(context.Background(), []Input{{Name: "a.log", R: strings.NewReader(log)}}, auto)
	if err != nil || res.Requests != 1 || res.Bad != 2 {
		t.Errorf("auto: %v, %d requests, %d bad; want the garbage first line bad, not a CSV header", err, res.Requests, res.Bad)
	}
	opts.Strict = true
	_, err = Replay(context.Background(), []Input{{Name: "a.log", R: strings.NewReader(log)}}, opts)
	if err == nil || !strings.HasPrefix(err.Error(), "a.log:1: ") {
		t.Errorf("strict: err %v, want a.log:1:", err)
	}
}

func TestFormatsAgree(t *testing.T) {
	inputs := map[string]string{
		"combined": `192.0.2.1 - alice [01/Mar/2026:10:00:00 +0200] "GET /users/42?x=1 HTTP/1.1" 200 1 "-" "x"`,
		"json":     `{"time":"2026-03-01T08:00:00Z","ip":"192.0.2.1","method":"GET","path":"/users/42?x=1","user":"alice"}`,
		"csv":      "time,ip,method,path,user\n2026-03-01T10:00:00+02:00,192.0.2.1,GET,/users/42?x=1,alice",
	}
	for format, log := range inputs {
		t.Run(format, func(t *testing.T) {
			res, err := Replay(context.Background(), []Input{{Name: format, R: strings.NewReader(log)}},
				Options{Limits: []Limit{mustLimit(t, "key=ip/24+endpoint+user limit=1/1s")}, Lanes: []string{"gcra"}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Requests != 1 || !res.Origin.Equal(time.Date(2026, 3, 1, 8, 0, 0, 0, time.UTC)) {
				t.Errorf("requests %d origin %v, want 1 at 08:00 UTC (bad: %v)", res.Requests, res.Origin, res.Shown)
			}
		})
	}
}

func TestGzipAndText(t *testing.T) {
	var raw bytes.Buffer
	writeCombined(&raw, 2000, 1)
	var zipped bytes.Buffer
	zw := gzipWriter(&zipped)
	zw.Write(raw.Bytes())
	zw.Close()
	opts := Options{Limits: []Limit{mustLimit(t, "key=ip limit=60/1m burst=10")}}
	a, err := Replay(context.Background(), []Input{{Name: "plain", R: &raw}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Replay(context.Background(), []Input{{Name: "gz", R: &zipped}}, opts)
	if err != nil {
		t.Fatal(err)
	}
	var ta, tb bytes.Buffer
	WriteText(&ta, a)
	WriteText(&tb, b)
	if ta.String() != tb.String() {
		t.Errorf("gzip differs:\n%s\n%s", ta.String(), tb.String())
	}
	if a.Limits[0].Lanes[0].Top[0].Key != "203.0.113.66" {
		t.Errorf("top key %v, want the heavy 203.0.113.66", a.Limits[0].Lanes[0].Top)
	}
}

func TestAppendPath(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/users/42/orders/?page=2", "/users/:id/orders"},
		{"//a//b", "/a/b"},
		{"", "/"},
		{"/?q", "/"},
		{"/o/123e4567-e89b-12d3-a456-426614174000", "/o/:id"},
		{"/h/deadbeefdeadbeef", "/h/:id"},
		{"/h/deadbeef", "/h/deadbeef"},
	}
	for _, tt := range tests {
		if got := string(AppendPath(nil, []byte(tt.in))); got != tt.want {
			t.Errorf("AppendPath(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLimitStringRoundTrips(t *testing.T) {
	for _, s := range []string{"name=a key=ip limit=100/1m burst=20", "name=b key=ip/24+endpoint limit=5/1h burst=5",
		"name=c key=field:api_key limit=3/500ms burst=1", "name=d key=user limit=7/1h30m burst=7"} {
		l := mustLimit(t, s)
		if l.String() != s {
			t.Errorf("ParseLimit(%q).String() = %q", s, l.String())
		}
	}
}

// TestReorderSorts: lines at most late behind the latest come out in (time,
// line) order, all of them, whichever of the FIFO and the heap held them.
func TestReorderSorts(t *testing.T) {
	for _, late := range []int64{0, 3, 50} {
		q := reorder{late: late}
		var in, out []event
		var latest int64
		for i := range 2000 {
			at := latest + int64(i%7) - int64((i*7919)%int(late+1))
			latest = max(latest, at)
			e := event{at: at, seq: int64(i)}
			if q.push(e) {
				in = append(in, e)
			}
			for {
				e, ok := q.pop(false)
				if !ok {
					break
				}
				out = append(out, e)
			}
		}
		for e, ok := q.pop(true); ok; e, ok = q.pop(true) {
			out = append(out, e)
		}
		if len(out) != len(in) || len(in) < 1900 {
			t.Fatalf("late %d: %d in, %d out", late, len(in), len(out))
		}
		for i := 1; i < len(out); i++ {
			if less(out[i], out[i-1]) {
				t.Fatalf("late %d: out of order at %d: %+v after %+v", late, i, out[i], out[i-1])
			}
		}
	}
}

// TestLegitLookingCaught: a key that sends 2 a minute for ten minutes and
// then one burst of 12 is refused and looks legitimate (at most half the limit
// in 10 of its 11 active windows); a key at 12 a minute throughout is refused
// and does not. Refusals land in the hour they happened.
func TestLegitLookingCaught(t *testing.T) {
	var log strings.Builder
	line := func(ip string, at time.Time) {
		log.WriteString(ip + ` - - [` + at.Format("02/Jan/2006:15:04:05 -0700") + `] "GET / HTTP/1.1" 200 1 "-" "x"` + "\n")
	}
	start := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for m := range 11 {
		t0 := start.Add(time.Duration(m) * time.Minute)
		n := 2
		if m == 10 {
			n = 12
		}
		for i := range 12 {
			at := t0.Add(time.Duration(i) * 4 * time.Second)
			if i < n {
				line("192.0.2.1", at)
			}
			line("192.0.2.2", at)
		}
	}
	res, err := Replay(context.Background(), []Input{{Name: "log", R: strings.NewReader(log.String())}},
		Options{Limits: []Limit{mustLimit(t, "key=ip limit=10/1m burst=10")}, Lanes: []string{"fixed_window"}})
	if err != nil {
		t.Fatal(err)
	}
	lane := res.Limits[0].Lanes[0]
	if lane.KeysRefused != 2 || lane.LegitCaught != 1 {
		t.Fatalf("keys refused %d, legit-looking caught %d; want 2 and 1 (top %+v)", lane.KeysRefused, lane.LegitCaught, lane.Top)
	}
	for _, k := range lane.Top {
		if k.Legit != (k.Key == "192.0.2.1") {
			t.Errorf("%s: legit-looking %v", k.Key, k.Legit)
		}
	}
	if len(lane.ByHour) != 1 || lane.ByHour[0] != lane.Refused {
		t.Errorf("by hour %v, want all %d in hour 0", lane.ByHour, lane.Refused)
	}
}

// TestReplayStopsWhenCancelled: a cancelled context stops the read with its error.
func TestReplayStopsWhenCancelled(t *testing.T) {
	var log bytes.Buffer
	writeCombined(&log, 10_000, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Replay(ctx, []Input{{Name: "log", R: &log}}, Options{Limits: []Limit{mustLimit(t, "key=ip limit=1/1s")}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err %v, want context.Canceled", err)
	}
}

// TestProgress: progress counts the input's bytes as given (compressed for
// gzip), so that they reach, and never pass, the file's size.
func TestProgress(t *testing.T) {
	var plain bytes.Buffer
	writeCombined(&plain, 20_000, 1)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(plain.Bytes())
	zw.Close()
	for _, tc := range []struct {
		name string
		data []byte
	}{{"plain", plain.Bytes()}, {"gzip", gz.Bytes()}} {
		t.Run(tc.name, func(t *testing.T) {
			size := int64(len(tc.data))
			var calls [][2]int64
			_, err := Replay(context.Background(), []Input{{Name: "log", R: bytes.NewReader(tc.data)}}, Options{Limits: []Limit{mustLimit(t, "key=ip limit=1/1s")},
				ProgressEvery: 1000, Progress: func(lines, bytes int64) { calls = append(calls, [2]int64{lines, bytes}) }})
			if err != nil {
				t.Fatal(err)
			}
			if len(calls) != 20 || calls[19][0] != 20_000 || calls[19][1] != size {
				t.Fatalf("progress calls %v, want every 1000 lines, the last at 20000 lines and %d bytes", calls, size)
			}
			for i := 1; i < len(calls); i++ {
				if calls[i][1] < calls[i-1][1] || calls[i][1] > size {
					t.Errorf("call %d: %d bytes after %d, want growing up to %d", i, calls[i][1], calls[i-1][1], size)
				}
			}
		})
	}
}

// TestRetiredKeysForgotten: a lane holds state only for live keys; a key
// retired retireAfter after its last request is idle in every lane and its
// state is dropped, and retiring one sooner is a programmer error (panic).
func TestRetiredKeysForgotten(t *testing.T) {
	l := mustLimit(t, "key=ip limit=10/1s burst=5")
	after := retireAfter(l.Policy)
	for _, lane := range LaneNames {
		d, err := newDecider(lane, l.Policy)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 1000 {
			for range 20 { // past the limit: the state is as full as it gets
				d.decide(int32(i), time.Duration(i)*time.Millisecond)
			}
		}
		if d.live() != 1000 {
			t.Errorf("%s: %d live keys, want 1000", lane, d.live())
		}
		for i := range 1000 {
			if _, ok := d.retire(int32(i), time.Duration(i)*time.Millisecond+after); !ok {
				t.Errorf("%s: key %d not live", lane, i)
			}
		}
		if d.live() != 0 {
			t.Errorf("%s: %d live keys after retiring all, want 0", lane, d.live())
		}
		d.decide(1, 0)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: retiring a key with a full state at once did not panic", lane)
				}
			}()
			d.retire(1, 0)
		}()
	}
}
