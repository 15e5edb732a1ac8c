package replay

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// NewSweep reads limits[N].limit or .burst, N one of the limits given, and
// positive whole values.
func TestPromiseNewSweep(t *testing.T) {
	limits := []Limit{mustLimit(t, "key=ip limit=4/1m"), mustLimit(t, "key=user limit=9/1s")}
	s, err := NewSweep("limits[1].burst", []string{"1", "30"}, limits)
	if err != nil || s.Limit != 1 || s.Field != "burst" || !slices.Equal(s.Values, []int64{1, 30}) || s.Path != "limits[1].burst" {
		t.Errorf("NewSweep(limits[1].burst) = %+v, %v", s, err)
	}
	_, err = NewSweep("limits[2].limit", []string{"1"}, limits)
	if err == nil || err.Error() != "--vary limits[2].limit: there are 2 --limit flags (limits[0] to limits[1])" {
		t.Errorf("limits[2] of 2: %v", err)
	}
	for _, tc := range []struct {
		path   string
		values []string
	}{
		{"limits[0].window", []string{"1"}}, {"limit", []string{"1"}}, {"limits[0].limit", []string{"0"}},
		{"limits[0].limit", []string{"-3"}}, {"limits[0].limit", []string{"2.5"}}, {" limits[0].limit", []string{"1"}},
	} {
		if _, err := NewSweep(tc.path, tc.values, limits); err == nil {
			t.Errorf("NewSweep(%q, %q): no error", tc.path, tc.values)
		}
	}
	if _, err := NewSweep("limits[0]\n.limit", nil, limits); err == nil || !strings.Contains(err.Error(), `"limits[0]\n.limit"`) {
		t.Errorf("a path with a line break: %v, want it quoted", err)
	}
}

// Expand appends a limit per value, named base@field=value; a varied limit
// whose burst was the default keeps following it, a set burst stays.
func TestPromiseSweepExpand(t *testing.T) {
	base := []Limit{mustLimit(t, "key=ip limit=4/1m name=a"), mustLimit(t, "key=ip limit=10/1s burst=3 name=b")}
	s := &Sweep{Path: "limits[1].limit", Limit: 1, Field: "limit", Values: []int64{20, 30}}
	got := s.Expand(slices.Clone(base))
	if len(got) != 4 || s.first != 2 || got[2].Name != "b@limit=20" || got[3].Name != "b@limit=30" ||
		got[2].Policy.Limit != 20 || got[2].Policy.Burst != 3 || got[3].Policy.Window != time.Second {
		t.Errorf("Expand(limits[1].limit) = %+v (first %d)", got, s.first)
	}
	s = &Sweep{Limit: 0, Field: "limit", Values: []int64{8}}
	if got := s.Expand(slices.Clone(base)); got[2].Policy.EffectiveBurst() != 8 || got[2].Name != "a@limit=8" {
		t.Errorf("a default burst under a varied limit: %+v, want it to follow (8)", got[2].Policy)
	}
	s = &Sweep{Limit: 0, Field: "burst", Values: []int64{2}}
	if got := s.Expand(slices.Clone(base)); got[2].Policy.Burst != 2 || got[2].Policy.Limit != 4 || got[2].Name != "a@burst=2" {
		t.Errorf("Expand(burst) = %+v", got[2])
	}
	// Check names --vary and the value of each limit no lane can replay.
	s = &Sweep{Path: "limits[0].burst", Limit: 0, Field: "burst", Values: []int64{5, math.MaxInt64, 7, math.MaxInt64 - 1}}
	err := s.Check(base[:1], []string{"token_bucket"})
	if err == nil || strings.Count(err.Error(), "--vary limits[0].burst: ") != 2 || !strings.Contains(err.Error(), "--vary limits[0].burst: 9223372036854775807: ") {
		t.Errorf("Check = %v, want the two huge values named", err)
	}
}

// A sweep in one replay: a point per value and lane in the values' order,
// RefusedShare over the requests, Smallest each lane's least value meeting
// the default objective, and Result.Limits only the limits given.
func TestPromiseSweepReplay(t *testing.T) {
	limits := []Limit{mustLimit(t, "key=ip limit=4/1m")}
	s, err := NewSweep("limits[0].limit", []string{"7", "5", "6"}, limits)
	if err != nil {
		t.Fatal(err)
	}
	lines := append(promiseLog(), "") // a blank line: read, not replayed
	res := replayLines(t, "json", lines, Options{Format: "json", Limits: limits, Lanes: []string{"fixed_window"}, Sweep: s})
	if res.Lines != 43 || res.Requests != 42 {
		t.Fatalf("lines %d requests %d, want 43 and 42", res.Lines, res.Requests)
	}
	if len(res.Limits) != 1 || res.Limits[0].Lanes[0].Refused != 5 {
		t.Fatalf("limits %d (refused %d), want only the one given, refusing 5", len(res.Limits), res.Limits[0].Lanes[0].Refused)
	}
	// At 5 a minute .1 and .2 are refused once each; at 6 and 7 nobody.
	want := []SweepPoint{
		{Value: 7, Lane: "fixed_window"},
		{Value: 5, Lane: "fixed_window", Refused: 2, KeysRefused: 2, BelowP99Refused: 2, RefusedShare: 2.0 / 42},
		{Value: 6, Lane: "fixed_window"},
	}
	if !reflect.DeepEqual(res.Sweep, want) {
		t.Errorf("sweep = %+v, want %+v", res.Sweep, want)
	}
	if !reflect.DeepEqual(res.Smallest, map[string]int64{"fixed_window": 6}) {
		t.Errorf("smallest = %v, want fixed_window 6 (7 and 6 meet it)", res.Smallest)
	}
	o := Options{Sweep: s}
	outs, err := Render(res, o, true, 0)
	if err != nil {
		t.Fatal(err)
	}
	text := string(outs.Text)
	if !strings.HasSuffix(text, "\nsmallest limits[0].limit refusing no key at or below the p99 of per-key peaks:\n  fixed_window: 6\n") {
		t.Errorf("text ends %q", text[max(0, len(text)-200):])
	}
	if outs, _ := Render(res, o, false, 0); strings.Contains(string(outs.Text), "smallest") || !strings.Contains(string(outs.Text), "would refuse") {
		t.Errorf("find false: %s", outs.Text)
	}
	if !bytes.Contains(outs.JSON, []byte(`"smallest": {`)) || !bytes.Contains(outs.JSON, []byte(`"refused_share": 0.047619047619047616`)) {
		t.Errorf("JSON lacks the sweep: %s", outs.JSON)
	}
}

// Points: a share of 0 when nothing was replayed.
func TestPromisePointsNoRequests(t *testing.T) {
	s := &Sweep{Values: []int64{3}, first: 1}
	r := &Result{Limits: []LimitResult{{}, {Lanes: []LaneResult{{Lane: "gcra", Refused: 0}}}}}
	if got := s.Points(r); len(got) != 1 || got[0] != (SweepPoint{Value: 3, Lane: "gcra"}) {
		t.Errorf("Points of an empty replay = %+v", got)
	}
}

// WriteSweepText: a row per point with its value, lane and three figures;
// then each lane's pick, or "none of the values"; a --where's text when given.
func TestPromiseWriteSweepText(t *testing.T) {
	r := &Result{
		Sweep: []SweepPoint{{Value: 10, Lane: "gcra", Refused: 123, KeysRefused: 4, BelowP99Refused: 2},
			{Value: 10, Lane: "fixed_window", Refused: 7, KeysRefused: 3, BelowP99Refused: 1}},
		Smallest: map[string]int64{"gcra": 10, "fixed_window": 0},
		Limits:   []LimitResult{{Lanes: []LaneResult{{Lane: "gcra"}, {Lane: "fixed_window"}}}},
	}
	s := &Sweep{Path: "limits[0].burst"}
	var b bytes.Buffer
	if err := WriteSweepText(&b, s, r, true, nil); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(b.String(), "\n")
	if lines[0] != "" || !strings.HasPrefix(strings.TrimSpace(lines[1]), "limits[0].burst") {
		t.Fatalf("head %q", lines[:2])
	}
	head := strings.Join(strings.Fields(lines[1]), " ")
	if head != "limits[0].burst lane would refuse keys refused keys below p99 refused" {
		t.Errorf("head %q", head)
	}
	for i, want := range []string{"10 gcra 123 4 2", "10 fixed_window 7 3 1"} {
		if got := strings.Join(strings.Fields(lines[2+i]), " "); got != want {
			t.Errorf("row %d = %q, want %q", i, got, want)
		}
	}
	if !strings.HasSuffix(lines[2], " 2 ") && !strings.HasSuffix(lines[2], "2") {
		t.Errorf("row %q", lines[2])
	}
	rest := strings.Join(lines[4:], "\n")
	if rest != "\nsmallest limits[0].burst refusing no key at or below the p99 of per-key peaks:\n  gcra: 10\n  fixed_window: none of the values\n" {
		t.Errorf("picks %q", rest)
	}
	w1, _ := ParseWhere("refused <= 5", []string{"gcra"})
	w2, _ := ParseWhere("lane gcra keys_refused < 1", []string{"gcra"})
	b.Reset()
	_ = WriteSweepText(&b, s, r, true, []Where{w1, w2})
	if !strings.Contains(b.String(), "\nsmallest limits[0].burst where refused <= 5 and lane gcra keys_refused < 1:\n  gcra: 10\n") {
		t.Errorf("with --where: %q", b.String())
	}
	b.Reset()
	_ = WriteSweepText(&b, s, r, false, nil)
	if strings.Contains(b.String(), "smallest") || strings.Count(b.String(), "\n") != 4 {
		t.Errorf("find false: %q", b.String())
	}
}

// Smallest: the least value meeting, whatever the points' order; 0 for a
// lane none meets.
func TestPromiseSmallestUnordered(t *testing.T) {
	pts := []SweepPoint{{Value: 30, Lane: "a"}, {Value: 10, Lane: "a", BelowP99Refused: 1}, {Value: 20, Lane: "a"}, {Value: 5, Lane: "b", BelowP99Refused: 2}}
	if got := Smallest(pts, nil); !reflect.DeepEqual(got, map[string]int64{"a": 20, "b": 0}) {
		t.Errorf("Smallest = %v, want a 20, b 0", got)
	}
	if got := Smallest(nil, nil); len(got) != 0 {
		t.Errorf("Smallest(none) = %v", got)
	}
}

// Where.Meets: each operator at its boundary, each metric its figure; a
// where on another lane is met.
func TestPromiseWhereMeets(t *testing.T) {
	p := SweepPoint{Lane: "gcra", Refused: 10, KeysRefused: 3, LegitCaught: 2, BelowP99Refused: 1, RefusedShare: 0.25}
	for _, tc := range []struct {
		metric string
		op     string
		want   float64
		meets  bool
	}{
		{"refused", "<=", 10, true}, {"refused", "<=", 9, false}, {"refused", "<", 10, false}, {"refused", "<", 11, true},
		{"refused", ">=", 10, true}, {"refused", ">=", 11, false}, {"refused", ">", 10, false}, {"refused", ">", 9, true},
		{"keys_refused", "<=", 3, true}, {"keys_refused", "<", 3, false},
		{"legit_keys_caught", "<=", 2, true}, {"legit_keys_caught", "<", 2, false},
		{"keys_below_p99_refused", "<=", 1, true}, {"keys_below_p99_refused", "<", 1, false},
		{"refused_share", "<=", 0.25, true}, {"refused_share", "<", 0.25, false},
	} {
		w := Where{Metric: tc.metric, Op: tc.op, Want: tc.want}
		if got := w.Meets(p); got != tc.meets {
			t.Errorf("%s %s %v on %+v: %v, want %v", tc.metric, tc.op, tc.want, p, got, tc.meets)
		}
	}
	if !(Where{Lane: "token_bucket", Metric: "refused", Op: "<", Want: 0}).Meets(p) {
		t.Errorf("a where on another lane: not met")
	}
	if (Where{Lane: "gcra", Metric: "refused", Op: "<", Want: 0}).Meets(p) {
		t.Errorf("a where on this lane, not met: met")
	}
	defer func() {
		if recover() == nil {
			t.Errorf("Meets(unknown metric): no panic")
		}
	}()
	Where{Metric: "bogus", Op: "<"}.Meets(p)
}

// ParseWhere's shares: a percent is divided by 100; at most 100% or 1.
func TestPromiseParseWhereShares(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want float64
		ok   bool
	}{
		{"refused_share <= 100%", 1, true}, {"refused_share <= 100.1%", 0, false}, {"refused_share <= 1", 1, true},
		{"refused_share <= 1.001", 0, false}, {"refused_share > 0.5%", 0.005, true}, {"refused >= 1e3", 1000, true},
		{"refused <= NaN", 0, false}, {"refused <= +Inf", 0, false}, {"  refused > 2  ", 2, true},
	} {
		w, err := ParseWhere(tc.in, []string{"gcra"})
		if (err == nil) != tc.ok || tc.ok && (w.Want != tc.want || w.Text != strings.TrimSpace(tc.in)) {
			t.Errorf("ParseWhere(%q) = %+v, %v; want %v, ok %v", tc.in, w, err, tc.want, tc.ok)
		}
	}
	if got := written("a\tb"); got != `"a\tb"` {
		t.Errorf("written(tab) = %s", got)
	}
	if got := oneLine("x\ny"); got != `"x\ny"` || oneLine("x y") != "x y" || written("x y") != "x y" {
		t.Errorf("oneLine = %s", got)
	}
}

// retireAfter saturates at 2^61 exactly when (burst+2) intervals would pass it.
func TestPromiseRetireAfterSaturates(t *testing.T) {
	sec := int64(time.Second)
	edge := (int64(1) << 61) / sec // the most intervals of 1s below 2^61
	for _, tc := range []struct {
		burst int64
		want  time.Duration
	}{
		{edge - 2, 2*time.Second + time.Duration(edge)*time.Second},
		{edge - 1, 1 << 61},
	} {
		p := algorithms.Policy{Limit: 1, Window: time.Second, Burst: tc.burst}
		if got := retireAfter(p); got != tc.want {
			t.Errorf("retireAfter(1/1s burst %d) = %d, want %d", tc.burst, got, tc.want)
		}
	}
	// the interval is the window over the limit, rounded up
	if got := retireAfter(algorithms.Policy{Limit: 3, Window: 10, Burst: 1}); got != 2*10+3*4 {
		t.Errorf("retireAfter(3/10ns burst 1) = %d, want 20+3×4", got)
	}
	if got := retireAfter(algorithms.Policy{Limit: 5, Window: 10, Burst: 1}); got != 2*10+3*2 {
		t.Errorf("retireAfter(5/10ns burst 1) = %d, want 20+3×2", got)
	}
}

// ProgressLine: the rate rounded, the ETA the remaining bytes at the rate so
// far in whole seconds, rounded down.
func TestPromiseProgressLineFigures(t *testing.T) {
	for _, tc := range []struct {
		lines, bytes, total int64
		elapsed             float64
		want                string
	}{
		{1000, 300, 1000, 1, "\r1000 lines, 1000 lines/s, ETA 2s   "},     // 700 left at 300/s: 2.33s
		{1000, 299, 1000, 1, "\r1000 lines, 1000 lines/s, ETA 2s   "},     // 2.34s
		{1000, 100, 1000, 3, "\r1000 lines, 333 lines/s, ETA 26s   "},     // 900 at 33.33../s: 26.99.. in floats
		{2000, 100, 1000, 4, "\r2000 lines, 500 lines/s, ETA 36s   "},     // 900 at 25/s
		{2000, 100, 1000, 3, "\r2000 lines, 667 lines/s, ETA 26s   "},     // 666.7 rounds up
		{10, 1000, 1000, 1, "\r10 lines, 10 lines/s, ETA 0s   "},          // done
		{10, 5, 0, 1, "\r10 lines, 10 lines/s   "},                        // no size
		{10, 5, 100, -1, "\r10 lines   "},                                 // a clock going back
		{10, 5, 100, 0.5, "\r10 lines, 20 lines/s, ETA 9s   "},            // 95 at 10/s
		{1, 1, 3, 1e-9, "\r1 lines, 1000000000 lines/s, ETA 0s   "},       // 2 at 1e9/s
		{7, 1, 1 << 40, 1, "\r7 lines, 7 lines/s, ETA 1099511627775s   "}, // exact in float
	} {
		if got := ProgressLine(tc.lines, tc.bytes, tc.total, tc.elapsed); got != tc.want {
			t.Errorf("ProgressLine(%d, %d, %d, %v) = %q, want %q", tc.lines, tc.bytes, tc.total, tc.elapsed, got, tc.want)
		}
	}
	var b bytes.Buffer
	now := time.Unix(100, 0)
	update, clear := Progress(&b, 1000, func() time.Time { return now })
	now = now.Add(2 * time.Second)
	update(50, 500)
	clear()
	if got := b.String(); got != "\r50 lines, 25 lines/s, ETA 2s   \r\033[K" {
		t.Errorf("Progress drew %q", got)
	}
}

// OpenInputs: total is the files' sizes, -1 when stdin is among them,
// wherever it is.
func TestPromiseOpenInputsTotal(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	os.WriteFile(a, []byte("12345"), 0o600)
	os.WriteFile(b, []byte("1234567"), 0o600)
	for _, tc := range []struct {
		names []string
		want  int64
	}{{[]string{a, b}, 12}, {[]string{a}, 5}, {[]string{"-", a}, -1}, {[]string{a, "-", b}, -1}, {[]string{a, b, "-"}, -1}} {
		in, total, closeAll, err := OpenInputs(tc.names, strings.NewReader(""))
		if err != nil || total != tc.want || len(in) != len(tc.names) {
			t.Errorf("OpenInputs(%v) = %d inputs, total %d, %v; want total %d", tc.names, len(in), total, err, tc.want)
		}
		for i, n := range tc.names {
			if in[i].Name != n {
				t.Errorf("input %d named %q, want %q", i, in[i].Name, n)
			}
		}
		closeAll()
	}
}

// HTML: the text escaped, every PNG among the files inline in name order, no other file.
func TestPromiseHTML(t *testing.T) {
	page, err := HTML("a <b> & c", map[string][]byte{"z.png": {1}, "a.png": {2, 3}, "replay.txt": []byte("x"), "m.png": nil})
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	if !strings.Contains(s, "<pre>a &lt;b&gt; &amp; c</pre>") {
		t.Errorf("text not escaped: %s", s)
	}
	ia, im, iz := strings.Index(s, `alt="a.png"`), strings.Index(s, `alt="m.png"`), strings.Index(s, `alt="z.png"`)
	if ia < 0 || im < ia || iz < im || strings.Contains(s, "replay.txt") || strings.Count(s, "<figure>") != 3 {
		t.Errorf("images out of order or extra: %s", s)
	}
	if !strings.Contains(s, `src="data:image/png;base64,AgM="`) || !strings.Contains(s, `src="data:image/png;base64,AQ=="`) {
		t.Errorf("images not inline in base64: %s", s)
	}
	if strings.Contains(s, "http://") || strings.Contains(s, "https://") {
		t.Errorf("the page reaches the network: %s", s)
	}
}

// WriteDir writes the three outputs, the plots and the page; Format picks one,
// the text for anything else.
func TestPromiseWriteDir(t *testing.T) {
	res := promiseResult(t)
	outs, err := Render(res, Options{}, false, 0)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "r")
	if err := outs.WriteDir(dir, res, nil); err != nil {
		t.Fatal(err)
	}
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") { // the folder's own marker
			continue
		}
		names = append(names, e.Name())
	}
	if want := []string{"peaks.png", "replay.csv", "replay.json", "replay.txt", "report.html", "timeline.png"}; !slices.Equal(names, want) {
		t.Errorf("files %v, want %v", names, want)
	}
	for name, want := range map[string][]byte{"replay.txt": outs.Text, "replay.json": outs.JSON, "replay.csv": outs.CSV} {
		if got, _ := os.ReadFile(filepath.Join(dir, name)); !bytes.Equal(got, want) {
			t.Errorf("%s differs from the output", name)
		}
	}
	if string(outs.Format("xml")) != string(outs.Text) || string(outs.Format("")) != string(outs.Text) {
		t.Errorf("Format(other) is not the text")
	}
}
