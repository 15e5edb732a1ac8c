package report

import (
	"bytes"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// describeLimits: "no limit" without limits; "limit " then each limit as
// "<name> <n> per <window>", a burst only when it differs from the limit, the
// key only when the name is not the key's, joined by ", then ".
func TestPromiseDescribeLimits(t *testing.T) {
	sec := time.Second
	ip := sim.KeyIP.String()
	for _, tc := range []struct {
		name   string
		limits []sim.Limit
		want   string
	}{
		{"none", nil, "no limit"},
		{"name is the key", []sim.Limit{{Name: ip, Key: sim.KeyIP, Policy: algorithms.Policy{Limit: 5, Window: sec}}},
			"limit " + ip + " 5 per 1s"},
		{"burst equal to limit is not shown", []sim.Limit{{Name: ip, Key: sim.KeyIP, Policy: algorithms.Policy{Limit: 5, Window: sec, Burst: 5}}},
			"limit " + ip + " 5 per 1s"},
		{"burst differs", []sim.Limit{{Name: ip, Key: sim.KeyIP, Policy: algorithms.Policy{Limit: 5, Window: sec, Burst: 8}}},
			"limit " + ip + " 5 per 1s (burst 8)"},
		{"named limit shows its key", []sim.Limit{{Name: "login", Key: sim.KeyIP, Policy: algorithms.Policy{Limit: 3, Window: time.Minute}}},
			"limit login 3 per 1m by " + ip},
		{"chain", []sim.Limit{
			{Name: ip, Key: sim.KeyIP, Policy: algorithms.Policy{Limit: 5, Window: sec}},
			{Name: "g", Key: sim.KeyGlobal, Policy: algorithms.Policy{Limit: 100, Window: 10 * sec, Burst: 20}}},
			"limit " + ip + " 5 per 1s, then g 100 per 10s (burst 20) by " + sim.KeyGlobal.String()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := describeLimits(tc.limits); got != tc.want {
				t.Errorf("describeLimits = %q, want %q", got, tc.want)
			}
		})
	}
}

// FormatDuration's doc examples, and inUnit's promise that a value rounding up
// to a whole next unit is written as that unit, never "1000ms" or "60s".
func TestPromiseFormatDurationRoundsIntoNextUnit(t *testing.T) {
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{
		{850 * time.Microsecond, "850µs"},
		{12500 * time.Microsecond, "12.5ms"},
		{950 * time.Millisecond, "950ms"},
		{1250 * time.Millisecond, "1.25s"},
		{150 * time.Second, "2m30s"},
		{999960 * time.Nanosecond, "1ms"},
		{999940 * time.Nanosecond, "999.9µs"},
		{999960 * time.Microsecond, "1s"},
		{999940 * time.Microsecond, "999.9ms"},
		{59996 * time.Millisecond, "1m"},
		{1500 * time.Millisecond, "1.5s"},
		{2 * time.Second, "2s"},
		{2001 * time.Microsecond, "2ms"},
		{-999960 * time.Microsecond, "-1s"},
	} {
		if got := FormatDuration(tc.d); got != tc.want {
			t.Errorf("FormatDuration(%d ns) = %q, want %q", int64(tc.d), got, tc.want)
		}
	}
}

// percent rounds to the nearest whole percent, not down; of nothing is "-".
func TestPromisePercentRoundsToNearest(t *testing.T) {
	for _, tc := range []struct {
		n, of int64
		want  string
	}{
		{1, 3, "33%"}, {2, 3, "67%"}, {0, 5, "0%"}, {5, 5, "100%"}, {199, 200, "100%"}, {7, 0, "-"},
	} {
		if got := percent(tc.n, tc.of); got != tc.want {
			t.Errorf("percent(%d, %d) = %q, want %q", tc.n, tc.of, got, tc.want)
		}
	}
}

// dash writes "-" for a figure over no samples, the figure otherwise.
func TestPromiseDash(t *testing.T) {
	if got := dash(0, "5ms"); got != "-" {
		t.Errorf("dash(0) = %q, want -", got)
	}
	if got := dash(1, "5ms"); got != "5ms" {
		t.Errorf("dash(1) = %q, want 5ms", got)
	}
}

// ratio: "-" without a limit; "not limiting" only for a concurrency lane that
// let everything through; OVER only above the limit, never at it; a concurrency
// lane that limited something is marked (concurrency), never OVER.
func TestPromiseRatioText(t *testing.T) {
	busy := func(lane sim.LaneKind, count, limit int64) sim.LaneResult {
		return sim.LaneResult{Lane: lane, Attempts: 100, Admitted: 90, Refused: 10,
			Peak: sim.WindowPeak{Count: count, Limit: limit}}
	}
	idle := func(lane sim.LaneKind, count, limit int64) sim.LaneResult {
		return sim.LaneResult{Lane: lane, Attempts: 100, Admitted: 100,
			Peak: sim.WindowPeak{Count: count, Limit: limit}}
	}
	for _, tc := range []struct {
		name string
		l    sim.LaneResult
		want string
	}{
		{"no limit", busy(sim.LaneGCRA, 5, 0), "-"},
		{"at the limit", busy(sim.LaneGCRA, 10, 10), "1.00×"},
		{"under", busy(sim.LaneGCRA, 5, 10), "0.50×"},
		{"over", busy(sim.LaneGCRA, 12, 10), "1.20× OVER"},
		{"rate lane limiting nothing is still judged", idle(sim.LaneGCRA, 12, 10), "1.20× OVER"},
		{"concurrency lane limiting nothing", idle(sim.LaneVegas, 12, 10), "not limiting"},
		{"concurrency lane limiting", busy(sim.LaneVegas, 12, 10), "1.20× (concurrency)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := ratio(tc.l); got != tc.want {
				t.Errorf("ratio = %q, want %q", got, tc.want)
			}
		})
	}
	// Just over the limit must not read as exactly at it.
	if got := ratio(busy(sim.LaneGCRA, 1001, 1000)); !strings.HasSuffix(got, " OVER") || strings.HasPrefix(got, "1.00×") {
		t.Errorf("ratio(1001/1000) = %q, want more than 1.00 and OVER", got)
	}
}

// writeFindings: nothing without findings; a "findings" heading, each finding
// after "  - ", wrapped lines indented by four spaces.
func TestPromiseWriteFindings(t *testing.T) {
	var b bytes.Buffer
	writeFindings(&b, nil, 0)
	if b.Len() != 0 {
		t.Fatalf("no findings, yet %q", b.String())
	}
	writeFindings(&b, []string{"one", "two"}, 0)
	if got, want := b.String(), "\nfindings\n  - one\n  - two\n"; got != want {
		t.Errorf("findings = %q, want %q", got, want)
	}
	b.Reset()
	writeFindings(&b, []string{"alpha beta gamma delta epsilon"}, 16)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[2], "  - alpha") {
		t.Fatalf("wrapped findings = %q", b.String())
	}
	for _, l := range lines[3:] {
		if !strings.HasPrefix(l, "    ") || strings.HasPrefix(l, "     ") {
			t.Errorf("continuation %q, want four spaces of indent", l)
		}
		if len([]rune(l)) > 16 {
			t.Errorf("line %q wider than 16", l)
		}
	}
}

// classTable: the lane's title on its first class only; "-" of fair share when
// the class has none, else successes over the fair share as a percentage.
func TestPromiseClassTable(t *testing.T) {
	r := sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneGCRA, Classes: []sim.ClassResult{
		{Name: "a", Unique: 10, Succeeded: 5, Attempts: 20, Refused: 5, FairShare: 4},
		{Name: "b", Unique: 10, Succeeded: 3, Attempts: 10, FairShare: 0},
	}}}}
	var b bytes.Buffer
	classTable(r).Write(&b)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("class table = %q, want head and two rows", b.String())
	}
	title := r.Lanes[0].Title()
	if !strings.HasPrefix(lines[1], title) || strings.Contains(lines[2], title) {
		t.Errorf("lane title should open the first class row only:\n%s", b.String())
	}
	a, bb := strings.Fields(lines[1]), strings.Fields(lines[2])
	if a[len(a)-1] != "125%" {
		t.Errorf("class a of fair share = %q, want 125%% (5 of 4)", a[len(a)-1])
	}
	if bb[len(bb)-1] != "-" {
		t.Errorf("class b of fair share = %q, want - (no fair share)", bb[len(bb)-1])
	}
	// p50 and p99 to success are "-" without successes timed.
	if bb[len(bb)-2] != "-" || bb[len(bb)-3] != "-" {
		t.Errorf("class b times to success = %v, want - -", bb)
	}
}

// termColumns: the drop order ascends by each column's place, and columns shown
// only for some results (shadow, backend, classes) come and go with them.
func TestPromiseTermColumns(t *testing.T) {
	heads := func(r sim.Result) (map[string]bool, []string) {
		cols, drop := termColumns(r)
		m := map[string]bool{}
		for _, c := range cols {
			m[c.head] = true
		}
		return m, drop
	}
	plain := sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneGCRA}}}
	m, drop := heads(plain)
	for _, h := range []string{"would refuse", "p99 latency", "class fairness"} {
		if m[h] {
			t.Errorf("plain result shows %q", h)
		}
	}
	byHead := map[string]int{}
	for _, c := range laneColumns {
		byHead[c.head] = c.drop
	}
	for i := 1; i < len(drop); i++ {
		if byHead[drop[i-1]] >= byHead[drop[i]] {
			t.Errorf("drop order %v: %q (%d) before %q (%d)", drop, drop[i-1], byHead[drop[i-1]], drop[i], byHead[drop[i]])
		}
	}
	for _, h := range drop {
		if !m[h] {
			t.Errorf("drop lists %q, which is not shown", h)
		}
	}
	full := sim.Result{
		Limits: []sim.Limit{{Shadow: true}},
		Lanes: []sim.LaneResult{{Lane: sim.LaneGCRA, Backend: sim.BackendStats{Served: 1},
			Classes: []sim.ClassResult{{Name: "a"}, {Name: "b"}}}},
	}
	m, drop = heads(full)
	for _, h := range []string{"would refuse", "p99 latency", "class fairness"} {
		if !m[h] {
			t.Errorf("full result lacks %q", h)
		}
	}
	if len(drop) == 0 || drop[0] != "p99 latency" {
		t.Errorf("first dropped = %v, want p99 latency first", drop)
	}
}

// hasShadow: a shadow limit or a rule change to shadow, at any time.
func TestPromiseHasShadow(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    sim.Result
		want bool
	}{
		{"none", sim.Result{Limits: []sim.Limit{{}, {}}}, false},
		{"second limit", sim.Result{Limits: []sim.Limit{{}, {Shadow: true}}}, true},
		{"rule change", sim.Result{Limits: []sim.Limit{{}}, Rules: []sim.RuleChange{{}, {Shadow: true}}}, true},
		{"rule change not shadow", sim.Result{Rules: []sim.RuleChange{{}}}, false},
	} {
		if got := hasShadow(tc.r); got != tc.want {
			t.Errorf("%s: hasShadow = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// number's sort key is 0 for NaN and infinities; nanos' is integer nanoseconds.
func TestPromiseSortKeys(t *testing.T) {
	l := &sim.LaneResult{Fairness: math.NaN(), TimeOverLimit: 1500 * time.Millisecond}
	if got := number(func(l *sim.LaneResult) float64 { return l.Fairness })(0, l); got != "0" {
		t.Errorf("number(NaN) = %q, want 0", got)
	}
	if got := number(func(*sim.LaneResult) float64 { return math.Inf(1) })(0, l); got != "0" {
		t.Errorf("number(+Inf) = %q, want 0", got)
	}
	if got := nanos(func(l *sim.LaneResult) time.Duration { return l.TimeOverLimit })(0, l); got != "1500000000" {
		t.Errorf("nanos(1.5s) = %q, want 1500000000", got)
	}
}

// csvShare is n/of, 0 when of is 0, for lanes and classes alike.
func TestPromiseCSVShare(t *testing.T) {
	c := csvShare("x", func(l *sim.LaneResult) (int64, int64) { return l.Succeeded, l.Unique },
		func(c *sim.ClassResult) (int64, int64) { return c.Succeeded, c.Unique })
	if got := c.lane(&sim.LaneResult{Succeeded: 3, Unique: 0}); got != "0" {
		t.Errorf("share of nothing = %q, want 0", got)
	}
	if got := c.lane(&sim.LaneResult{Succeeded: 1, Unique: 4}); got != "0.25" {
		t.Errorf("share 1/4 = %q, want 0.25", got)
	}
	if got := c.of(nil, &sim.ClassResult{Succeeded: 3, Unique: 4}); got != "0.75" {
		t.Errorf("class share 3/4 = %q, want 0.75", got)
	}
	if got := c.of(nil, &sim.ClassResult{Succeeded: 3}); got != "0" {
		t.Errorf("class share of nothing = %q, want 0", got)
	}
}

// writePacing and writeRetryAfter speak when any class paces / any lane saw a
// retry come back when told, not only the first.
func TestPromisePacingAndRetryAfterAnyNotFirst(t *testing.T) {
	classes := []sim.ClassResult{{Name: "hitters", Attempts: 4, Refused: 1}, {Name: "pacers", Pace: true, Attempts: 2}}
	var b bytes.Buffer
	writePacing(&b, sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneGCRA, Classes: classes}}})
	if !strings.Contains(b.String(), "pacers (pacing)") || strings.Contains(b.String(), "hitters (pacing)") {
		t.Errorf("pacing by the second class only:\n%s", b.String())
	}
	if row := strings.Join(strings.Fields(strings.Split(b.String(), "\n")[3]), " "); !strings.HasSuffix(row, "4 25% 2 0%") {
		t.Errorf("pacing row = %q, want hitters 4 25%%, pacers 2 0%%", row)
	}
	b.Reset()
	writeRetryAfter(&b, sim.Result{Lanes: []sim.LaneResult{
		{Lane: sim.LaneGCRA},
		{Lane: sim.LaneTokenBucket, RetryAfter: sim.RetryAfterStats{Given: 2, RetriedAt: 1}},
	}})
	if b.Len() == 0 {
		t.Fatal("a retry came back when told in the second lane, yet no table")
	}
	if row := strings.Fields(strings.Split(b.String(), "\n")[3]); strings.Join(row[len(row)-3:], " ") != "0 0 0" {
		t.Errorf("first lane row = %v, want 0 0 0", row)
	}
}
