package report

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// exactAdmits replays lane's attempts (its admit and refuse records, in the
// trace's order), each at its record's instant plus shift (when the limit
// decided it), through one exact limiter of the lane's algorithm and policy
// p, and is the instants it admits, sorted.
func exactAdmits(t *testing.T, log traceLog, lane sim.LaneKind, p algorithms.Policy, shift time.Duration) []time.Duration {
	t.Helper()
	var decide func(now time.Duration, cost int64) bool
	switch lane {
	case sim.LaneTokenBucket:
		a, err := algorithms.NewTokenBucket(p)
		if err != nil {
			t.Fatal(err)
		}
		var s algorithms.TokenBucketState
		decide = func(now time.Duration, cost int64) bool { return a.Decide(&s, now, cost).Admitted() }
	case sim.LaneGCRA:
		a, err := algorithms.NewGCRA(p)
		if err != nil {
			t.Fatal(err)
		}
		var s algorithms.GCRAState
		decide = func(now time.Duration, cost int64) bool { return a.Decide(&s, now, cost).Admitted() }
	case sim.LaneSlidingLog:
		a, err := algorithms.NewSlidingLog(p)
		if err != nil {
			t.Fatal(err)
		}
		var s algorithms.SlidingLogState
		decide = func(now time.Duration, cost int64) bool { return a.Decide(&s, now, cost).Admitted() }
	case sim.LaneFixedWindow:
		a, err := algorithms.NewFixedWindow(p)
		if err != nil {
			t.Fatal(err)
		}
		var s algorithms.FixedWindowState
		decide = func(now time.Duration, cost int64) bool { return a.Decide(&s, now, cost).Admitted() }
	default:
		t.Fatalf("no exact limiter for %v", lane)
	}
	var out []time.Duration
	for _, r := range log {
		if r.Lane == lane && (r.Event == sim.TraceAdmit || r.Event == sim.TraceRefuse) && decide(r.At+shift, r.Cost) {
			out = append(out, r.At+shift)
		}
	}
	slices.Sort(out)
	return out
}

const jitteryStore = `
duration: 20s
lanes: [fixed_window, sliding_log, token_bucket, gcra]
limits:
  - name: global
    key: global
    limit: 50
    window: 1s
    state: shared
topology:
  replicas: 4
  store:
    latency:
      mean: 5ms
      distribution: exponential
clients:
  - name: users
    count: 100
    arrivals:
      - kind: poisson
        rate: 4/s
`

// Behind an atomic store with jittery round trips, the limit's own figures
// (max in window, fleet max) are counted at the store's decisions, and what
// the backend saw is its own figure and finding: the count the finding says is
// the trace's admissions, timed as they reached the backend; an atomic sliding
// log reads no OVER and no overshoot.
func TestArrivedFinding(t *testing.T) {
	o, log := runYAML(t, jitteryStore)
	times := admitsOf(log, "")
	re := regexp.MustCompile(`the backend saw (\d+) admitted by global in the 1s window from t=\S+, [\d.]+× the limit of 50, though the limit decided at most (\d+) in any window`)
	fs := findingsWith(o, "the backend saw")
	if len(fs) == 0 {
		t.Fatalf("no finding on what the backend saw in %q", o.Findings())
	}
	for _, f := range fs {
		m := re.FindStringSubmatch(f)
		if m == nil {
			t.Fatalf("finding %q does not read as expected", f)
		}
		for _, l := range lanesNamed(*o.Result, f) {
			slices.Sort(times[l.Lane])
			got := mostInWindow(times[l.Lane], time.Second)
			lt := l.Topology.Limits[0]
			if got != atoi(t, m[1]) || got <= 50 || atoi(t, m[2]) != lt.Fleet.Count || got <= lt.Fleet.Count {
				t.Errorf("%s: the trace has %d in a window, the fleet peak is %d; the finding %q", l.Lane.Title(), got, lt.Fleet.Count, f)
			}
		}
	}
	for _, l := range o.Result.Lanes {
		if lt := l.Topology.Limits[0]; l.Lane == sim.LaneSlidingLog && (l.Peak.Count > 50 || lt.Fleet.Count > 50 || lt.Overshoot != 0) {
			t.Errorf("an atomic sliding log read %d (fleet %d, overshoot %d) over its limit of 50", l.Peak.Count, lt.Fleet.Count, lt.Overshoot)
		}
	}
	var b strings.Builder
	if err := WriteTable(&b, []Run{o}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "backend max") {
		t.Errorf("the fleet table shows no backend max column:\n%s", b.String())
	}
	if strings.Contains(b.String(), "sliding log  ") && regexp.MustCompile(`(?m)^sliding log .*OVER`).MatchString(b.String()) {
		t.Errorf("an atomic sliding log reads OVER:\n%s", b.String())
	}
	// The verdict says what the backend saw when it differs from the fleet's peak.
	for _, l := range o.Result.Lanes {
		lt := l.Topology.Limits[0]
		arrived := mostInWindow(times[l.Lane], time.Second)
		v := laneVerdict(*o.Result, l).Text
		if says := strings.Contains(v, fmt.Sprintf("The backend saw %d in one window", arrived)); says != (arrived != lt.Fleet.Count) {
			t.Errorf("%s: verdict %q says the backend's %d: %v", l.Lane.Title(), v, arrived, says)
		}
	}
	// A store that answers at once: one moment, no such column or finding.
	instant, _ := runYAML(t, strings.Replace(jitteryStore, "mean: 5ms", "mean: 0s", 1))
	if fs := findingsWith(instant, "the backend saw"); len(fs) > 0 {
		t.Errorf("an instantaneous store has a finding on what the backend saw: %q", fs)
	}
	b.Reset()
	if err := WriteTable(&b, []Run{instant}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "backend max") {
		t.Error(fmt.Sprintf("an instantaneous store shows backend max:\n%s", b.String()))
	}
}
