package report

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/sim"
)

// countShadows counts limits that are a shadow at some time, each once, whether
// from the start or by a rule push; shadowFindings says "a shadow limit" for
// one and "shadow limits" for more.
func TestPromiseCountShadowsAndWording(t *testing.T) {
	for _, tc := range []struct {
		name   string
		limits []sim.Limit
		rules  []sim.RuleChange
		want   int
	}{
		{"none", []sim.Limit{{}, {}}, nil, 0},
		{"shadow from the start", []sim.Limit{{Shadow: true}, {}}, nil, 1},
		{"same limit twice", []sim.Limit{{Shadow: true}, {}}, []sim.RuleChange{{Limit: 0, Shadow: true}}, 1},
		{"pushed to shadow", []sim.Limit{{}, {}}, []sim.RuleChange{{Limit: 1, Shadow: true}}, 1},
		{"pushed back to enforced still counts", []sim.Limit{{Shadow: true}, {}}, []sim.RuleChange{{Limit: 0}}, 1},
		{"two", []sim.Limit{{Shadow: true}, {}}, []sim.RuleChange{{Limit: 1, Shadow: true}}, 2},
	} {
		r := sim.Result{Limits: tc.limits, Rules: tc.rules}
		if got := countShadows(r); got != tc.want {
			t.Errorf("%s: countShadows = %d, want %d", tc.name, got, tc.want)
		}
	}
	lane := sim.LaneResult{Lane: sim.LaneGCRA, ShadowRefused: 3,
		Classes: []sim.ClassResult{{Name: "a", ShadowRefused: 3}, {Name: "b"}}}
	one := shadowFindings(sim.Result{Limits: []sim.Limit{{Shadow: true}, {}}, Lanes: []sim.LaneResult{lane}})
	if len(one) != 1 || !strings.Contains(one[0], ", a shadow limit would have refused 3 attempts and let them through (a 3)") {
		t.Errorf("one shadow: %q", one)
	}
	two := shadowFindings(sim.Result{Limits: []sim.Limit{{Shadow: true}, {Shadow: true}}, Lanes: []sim.LaneResult{lane}})
	if len(two) != 1 || !strings.Contains(two[0], ", shadow limits would have refused") {
		t.Errorf("two shadows: %q", two)
	}
	if got := shadowFindings(sim.Result{Limits: []sim.Limit{{Shadow: true}}, Lanes: []sim.LaneResult{{Lane: sim.LaneGCRA}}}); len(got) != 0 {
		t.Errorf("nothing would have been refused, yet %q", got)
	}
}

// outageTime is how long the store was down within [0, end): outages are
// clipped at end, and one wholly after it counts nothing.
func TestPromiseOutageTime(t *testing.T) {
	s := time.Second
	topo := &sim.Topology{Store: sim.Store{Outages: []sim.Outage{{From: 2 * s, To: 5 * s}, {From: 8 * s, To: 12 * s}, {From: 20 * s, To: 30 * s}}}}
	for _, tc := range []struct {
		end, want time.Duration
	}{{10 * s, 5 * s}, {12 * s, 7 * s}, {4 * s, 2 * s}, {time.Second, 0}, {40 * s, 17 * s}} {
		if got := outageTime(topo, tc.end); got != tc.want {
			t.Errorf("outageTime(end %v) = %v, want %v", tc.end, got, tc.want)
		}
	}
	if got := outageTime(nil, 10*s); got != 0 {
		t.Errorf("outageTime(nil) = %v, want 0", got)
	}
}

// jitterPhrase names each kind of backoff; callsInterval the mean and its 95%
// interval, whole calls.
func TestPromiseContentionPhrases(t *testing.T) {
	for j, want := range map[sim.JitterKind]string{
		sim.JitterNone: "backoff without jitter", sim.JitterNoBackoff: "no backoff at all",
		sim.JitterFull: sim.JitterFull.String() + " jitter", sim.JitterEqual: sim.JitterEqual.String() + " jitter",
	} {
		if got := jitterPhrase(j); got != want {
			t.Errorf("jitterPhrase(%v) = %q, want %q", j, got, want)
		}
	}
	c := contention.Row{Calls: 33.4, CallsLow: 29.6, CallsHigh: 36.6}
	if got, want := callsInterval(c), "33 calls, 95% interval 30–37"; got != want {
		t.Errorf("callsInterval = %q, want %q (rounded to whole calls)", got, want)
	}
}

// contentionAxes lists jitter kinds and client counts in the order met, each once.
func TestPromiseContentionAxesOrderMet(t *testing.T) {
	rows := []contention.Row{
		{Jitter: sim.JitterEqual, Clients: 20}, {Jitter: sim.JitterEqual, Clients: 5},
		{Jitter: sim.JitterFull, Clients: 20}, {Jitter: sim.JitterFull, Clients: 5},
		{Jitter: sim.JitterNone, Clients: 50},
	}
	js, cs := contentionAxes(contention.Result{Rows: rows})
	if len(js) != 3 || js[0] != sim.JitterEqual || js[1] != sim.JitterFull || js[2] != sim.JitterNone {
		t.Errorf("jitters = %v, want equal, full, none", js)
	}
	if len(cs) != 3 || cs[0] != 20 || cs[1] != 5 || cs[2] != 50 {
		t.Errorf("clients = %v, want 20 5 50", cs)
	}
}

// ContentionFindings reads the largest client count (the last met); none with a
// single kind; "differ" when more than one kind ties with the best.
func TestPromiseContentionFindingsEdges(t *testing.T) {
	cell := func(j sim.JitterKind, clients int, low, mean, high float64) contention.Row {
		return contention.Row{Clients: clients, Jitter: j, Runs: 4, Calls: mean, CallsLow: low, CallsHigh: high}
	}
	if got := ContentionFindings(contention.Result{Rows: []contention.Row{cell(sim.JitterFull, 10, 1, 2, 3)}}); got != nil {
		t.Errorf("one kind: %q, want none", got)
	}
	rows := []contention.Row{
		cell(sim.JitterFull, 5, 1, 2, 3), cell(sim.JitterFull, 50, 30, 33, 36),
		cell(sim.JitterNone, 5, 100, 110, 120), cell(sim.JitterNone, 50, 55, 61, 67),
	}
	fs := ContentionFindings(contention.Result{Rows: rows})
	if len(fs) != 1 || !strings.HasPrefix(fs[0], "at 50 clients, full jitter made the fewest") {
		t.Errorf("findings = %q, want full jitter winning at 50 clients", fs)
	}
	tied := []contention.Row{
		cell(sim.JitterFull, 10, 30, 33, 36), cell(sim.JitterEqual, 10, 34, 38, 42),
		cell(sim.JitterDecorrelated, 10, 32, 36, 40), cell(sim.JitterNone, 10, 55, 61, 67),
	}
	fs = ContentionFindings(contention.Result{Rows: tied})
	if len(fs) != 1 || !strings.Contains(fs[0], " differ from it by less than run-to-run spread") || strings.Contains(fs[0], " differs ") {
		t.Errorf("two tied: %q, want plural differ", fs)
	}
}

// AdaptiveFigure's caption names the bucket; hasAdaptive needs some point.
func TestPromiseAdaptiveCaptionAndPresence(t *testing.T) {
	r := sim.Result{Bucket: 250 * time.Millisecond, Duration: time.Second, Lanes: []sim.LaneResult{
		{Lane: sim.LaneAIMD, Adaptive: &sim.AdaptiveState{}},
		{Lane: sim.LaneVegas},
	}}
	if hasAdaptive(r) {
		t.Error("hasAdaptive with no points = true")
	}
	r.Lanes[1].Adaptive = &sim.AdaptiveState{Points: []sim.AdaptivePoint{{Limit: 4, LimitMin: 3, InFlightMax: 2}}}
	if !hasAdaptive(r) {
		t.Error("hasAdaptive with a point = false")
	}
	f := AdaptiveFigure(r)
	if !strings.HasPrefix(f.Caption, "Per 250ms bucket.") {
		t.Errorf("caption %q, want it to open with the bucket", f.Caption)
	}
}

// retries names the lane with the highest amplification "most" and the lowest
// "least", two decimals at most, each with its all-done time.
func TestPromiseRetriesMostAndLeast(t *testing.T) {
	r := sim.Result{Lanes: []sim.LaneResult{
		{Lane: sim.LaneFixedWindow, RetryAmplification: 1.3, AllDoneAt: 2 * time.Second},
		{Lane: sim.LaneGCRA, RetryAmplification: 2.345, AllDoneAt: 5 * time.Second},
		{Lane: sim.LaneTokenBucket, RetryAmplification: 1.1, AllDoneAt: time.Second},
	}}
	got := retries(r)
	want := "retries multiplied the load most under " + sim.LaneGCRA.Title() + " (2.35 attempts per request, all done at t=5s) and least under " +
		sim.LaneTokenBucket.Title() + " (1.1, done at t=1s)"
	if len(got) != 1 || got[0] != want {
		t.Errorf("retries = %q, want [%q]", got, want)
	}
	r.Lanes[1].RetryAmplification = 1.19
	r.Lanes[0].RetryAmplification = 1.0
	if got := retries(r); got != nil {
		t.Errorf("highest 1.19: retries = %q, want none", got)
	}
}

// list joins names as "a", "a and b" or "a, b and c".
func TestPromiseList(t *testing.T) {
	for _, tc := range []struct {
		in   []string
		want string
	}{{nil, ""}, {[]string{"a"}, "a"}, {[]string{"a", "b"}, "a and b"}, {[]string{"a", "b", "c"}, "a, b and c"}} {
		if got := list(tc.in); got != tc.want {
			t.Errorf("list(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Lanes whose retries multiplied the load alike are said alike: no lane is
// named both the most and the least.
func TestRetriesAlikeNameNoLaneTwice(t *testing.T) {
	r := sim.Result{Lanes: []sim.LaneResult{
		{Lane: sim.LaneTokenBucket, Name: "token_bucket", RetryAmplification: 3.58},
		{Lane: sim.LaneGCRA, Name: "gcra", RetryAmplification: 3.5801},
	}}
	got := retries(r)
	if len(got) != 1 || got[0] != "retries multiplied the load alike under every lane: 3.58 attempts per request" {
		t.Errorf("retries = %q", got)
	}
	r.Lanes[1].RetryAmplification = 2.1
	if got := retries(r); len(got) != 1 || !strings.Contains(got[0], "most under "+sim.LaneTokenBucket.Title()) || !strings.Contains(got[0], "least under "+sim.LaneGCRA.Title()) {
		t.Errorf("retries with a difference = %q", got)
	}
}

// A lane with requests unfinished at the end is not said to be all done.
func TestRetriesFindingNamesUnfinished(t *testing.T) {
	r := sim.Result{Lanes: []sim.LaneResult{
		{Lane: sim.LaneTokenBucket, Name: "token_bucket", RetryAmplification: 6.8, AllDoneAt: time.Second, Pending: 190},
		{Lane: sim.LaneGCRA, Name: "gcra", RetryAmplification: 2, AllDoneAt: 3 * time.Second},
	}}
	got := retries(r)
	if len(got) != 1 || !strings.Contains(got[0], "6.8 attempts per request, 190 unfinished at the end)") || !strings.Contains(got[0], "(2, done at t=3s)") {
		t.Errorf("retries = %q", got)
	}
}
