package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// overLane is a rate lane that admitted count in the window from start, of a
// limit of 10 per second, refusing refused attempts.
func overLane(k sim.LaneKind, count int64, start time.Duration, refused int64) sim.LaneResult {
	return sim.LaneResult{Lane: k, Attempts: 30, Admitted: 30 - refused, Refused: refused,
		Peak: sim.WindowPeak{Count: count, Limit: 10, Start: start, End: start + time.Second, Ratio: float64(count) / 10}}
}

func oneLimit() []sim.Limit {
	return []sim.Limit{{Name: "per_user", Policy: algorithms.Policy{Limit: 10, Window: time.Second}}}
}

// The over-limit finding: worst first, lanes of the same peak named
// together, the key when the peak has one, ", refusing
// nothing" for a lane that refused nothing (and such a lane not grouped with
// one that did), and a note when the limit was a shadow in the peak's window.
func TestOverLimitFindingWords(t *testing.T) {
	r := sim.Result{Limits: oneLimit(), Lanes: []sim.LaneResult{
		overLane(sim.LaneFixedWindow, 15, 2*time.Second, 5),
		overLane(sim.LaneSlidingWindowCounter, 20, time.Second, 5),
		overLane(sim.LaneTokenBucket, 15, 2*time.Second, 5),
		overLane(sim.LaneSlidingLog, 15, 2*time.Second, 0),
	}}
	tb, fw, sw, sl := sim.LaneTokenBucket.Title(), sim.LaneFixedWindow.Title(), sim.LaneSlidingWindowCounter.Title(), sim.LaneSlidingLog.Title()
	want := []string{
		sw + " admitted 20 in the 1s window from t=1s: 2× the limit of 10",
		fw + " and " + tb + " admitted 15 in the 1s window from t=2s: 1.5× the limit of 10",
		sl + " admitted 15 in the 1s window from t=2s: 1.5× the limit of 10, refusing nothing",
	}
	if got := overLimit(r); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("overLimit =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	for _, tc := range []struct {
		key, want string
	}{{"", ": 1.5×"}, {"user-7", " (key user-7): 1.5×"}} {
		l := overLane(sim.LaneFixedWindow, 15, 2*time.Second, 5)
		l.Peak.Key = tc.key
		got := overLimit(sim.Result{Limits: oneLimit(), Lanes: []sim.LaneResult{l}})
		if len(got) != 1 || !strings.Contains(got[0], "from t=2s"+tc.want) {
			t.Errorf("peak key %q: %q, want %q after the start", tc.key, got, tc.want)
		}
	}

	const shadowNote = "; the limit was a shadow then, refusing nothing"
	for _, tc := range []struct {
		name   string
		shadow bool
		rules  []sim.RuleChange
		want   bool
	}{
		{"enforced", false, nil, false},
		{"a shadow throughout", true, nil, true},
		{"enforced before the window", true, []sim.RuleChange{{At: time.Second, Limit: 0}}, false},
		{"made a shadow inside the window", false, []sim.RuleChange{{At: 2500 * time.Millisecond, Limit: 0, Shadow: true}}, true},
		{"made a shadow after the window", false, []sim.RuleChange{{At: 3 * time.Second, Limit: 0, Shadow: true}}, false},
	} {
		lim := oneLimit()
		lim[0].Shadow = tc.shadow
		got := overLimit(sim.Result{Limits: lim, Rules: tc.rules, Lanes: []sim.LaneResult{overLane(sim.LaneFixedWindow, 15, 2*time.Second, 5)}})
		if len(got) != 1 || strings.HasSuffix(got[0], shadowNote) != tc.want {
			t.Errorf("%s: %q, shadow note %v wanted", tc.name, got, tc.want)
		}
	}
}

// Lanes are twins only when their verdict hashes match: equal totals with
// different verdicts are not, and a lane that limited nothing is left out.
func TestTwinsNeedEqualVerdicts(t *testing.T) {
	lane := func(k sim.LaneKind, v uint64) sim.LaneResult {
		return sim.LaneResult{Lane: k, Attempts: 4, Admitted: 2, Refused: 2, Verdicts: v}
	}
	if got := twins(sim.Result{Lanes: []sim.LaneResult{lane(sim.LaneTokenBucket, 1), lane(sim.LaneGCRA, 2)}}); got != nil {
		t.Errorf("different verdicts, equal totals: %q, want none", got)
	}
	free := sim.LaneResult{Lane: sim.LaneFixedWindow, Attempts: 4, Admitted: 4, Verdicts: 1}
	got := twins(sim.Result{Lanes: []sim.LaneResult{lane(sim.LaneTokenBucket, 1), free, lane(sim.LaneGCRA, 1)}})
	want := sim.LaneTokenBucket.Title() + " and " + sim.LaneGCRA.Title() + " made the same decision on every attempt (2 admitted, 2 refused)"
	if len(got) != 1 || got[0] != want {
		t.Errorf("twins = %q, want [%q]", got, want)
	}
}

// A class starved under several lanes is one finding naming each lane with
// its part of the fair share; a scenario of one class has no class findings.
func TestClassGapsNamesEveryStarvingLane(t *testing.T) {
	classes := func(a int64) []sim.ClassResult {
		return []sim.ClassResult{{Name: "free", Unique: 100, Succeeded: a, FairShare: 50}, {Name: "paid", Unique: 100, Succeeded: 100 - a, FairShare: 50}}
	}
	r := sim.Result{Lanes: []sim.LaneResult{
		{Lane: sim.LaneTokenBucket, Classes: classes(10)},
		{Lane: sim.LaneGCRA, Classes: classes(40)},
		{Lane: sim.LaneFixedWindow, Classes: classes(20)},
	}}
	got := classGaps(r)
	want := "class free got under half its fair share of the successes under " +
		sim.LaneTokenBucket.Title() + " (20%) and " + sim.LaneFixedWindow.Title() + " (40%)"
	if len(got) != 1 || got[0] != want {
		t.Errorf("classGaps = %q, want [%q]", got, want)
	}
	one := sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneTokenBucket,
		Classes: []sim.ClassResult{{Name: "all", Unique: 100, Succeeded: 10, FairShare: 100}}}}}
	if got := classGaps(one); got != nil {
		t.Errorf("one class: %q, want none", got)
	}
}

// starvedSentence sets the starved class against the best-served one.
func TestStarvedSentenceNamesTheBestServed(t *testing.T) {
	l := sim.LaneResult{Lane: sim.LaneTokenBucket, Classes: []sim.ClassResult{
		{Name: "free", Unique: 100, Succeeded: 10, FairShare: 40},
		{Name: "paid", Unique: 100, Succeeded: 90, FairShare: 40},
		{Name: "batch", Unique: 100, Succeeded: 50, FairShare: 40},
	}}
	s, ok := starved(l)
	if !ok || s.Name != "free" {
		t.Fatalf("starved = %+v, %v; want free", s, ok)
	}
	want := "class free got 25% of its fair share of the successes: 10% of its requests succeeded, against 90% for paid"
	if got := starvedSentence(l, s); got != want {
		t.Errorf("starvedSentence = %q, want %q", got, want)
	}
}

// The autoscaler's steps: grew or shrank, steps at or after the end or that
// keep the count said nothing of, and the whole-limit warning only on growth
// with a local limit each replica enforces whole.
func TestAutoscalerFindingWords(t *testing.T) {
	topo := &sim.Topology{Replicas: []sim.ReplicaStep{{At: 0, Count: 2}, {At: time.Second, Count: 4}, {At: 2 * time.Second, Count: 4},
		{At: 3 * time.Second, Count: 1}, {At: 10 * time.Second, Count: 8}}}
	for _, tc := range []struct {
		local sim.LocalLimit
		state sim.StateKind
		want  []string
	}{
		{sim.LocalFull, sim.StateLocal, []string{
			"at t=1s the autoscaler grew the fleet from 2 to 4 replicas, each enforcing the whole of per_user on its own: the fleet may now admit 4 times what one replica may, not 2",
			"at t=3s the autoscaler shrank the fleet from 4 to 1 replicas"}},
		{sim.LocalDivided, sim.StateLocal, []string{"at t=1s the autoscaler grew the fleet from 2 to 4 replicas", "at t=3s the autoscaler shrank the fleet from 4 to 1 replicas"}},
		{sim.LocalFull, sim.StateShared, []string{"at t=1s the autoscaler grew the fleet from 2 to 4 replicas", "at t=3s the autoscaler shrank the fleet from 4 to 1 replicas"}},
	} {
		lim := oneLimit()
		lim[0].State, lim[0].LocalLimit = tc.state, tc.local
		got := autoscalerFindings(sim.Result{Duration: 10 * time.Second, Limits: lim}, topo)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("state %v, local %v: autoscalerFindings =\n%s\nwant\n%s", tc.state, tc.local, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

// A divided limit is said to leave replicas nothing only when the fleet's
// largest count exceeds its units per window; a shared limit is judged on
// its fallback.
func TestDividedFindingBounds(t *testing.T) {
	topo := func(n int) *sim.Topology {
		return &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 2}, {At: time.Second, Count: n}}}
	}
	lim := []sim.Limit{{Name: "per_user", LocalLimit: sim.LocalDivided, Policy: algorithms.Policy{Limit: 3, Window: time.Second}}}
	r := sim.Result{Limits: lim}
	if got := dividedFinding(r, topo(3), 0); got != "" {
		t.Errorf("3 per 1s over 3 replicas: %q, want none", got)
	}
	got := dividedFinding(r, topo(5), 0)
	if !strings.HasPrefix(got, "the limit per_user of 3 per 1s divided over 5 replicas leaves 2 of them a share of nothing: the fleet admits at most 3 per 1s") {
		t.Errorf("3 per 1s over 5 replicas: %q", got)
	}
	shared := []sim.Limit{{Name: "per_user", State: sim.StateShared, LocalLimit: sim.LocalDivided, OnStoreError: sim.FailLocal,
		Policy: algorithms.Policy{Limit: 100, Window: time.Second}, Fallback: algorithms.Policy{Limit: 2, Window: time.Second}}}
	if got := dividedFinding(sim.Result{Limits: shared}, topo(3), 0); !strings.HasPrefix(got, "the fallback limit per_user of 2 per 1s divided over 3 replicas leaves 1 of them") {
		t.Errorf("a shared limit's fallback of 2 over 3 replicas: %q", got)
	}
	whole := []sim.Limit{{Name: "per_user", Policy: algorithms.Policy{Limit: 1, Window: time.Second}}}
	if got := dividedFinding(sim.Result{Limits: whole}, topo(5), 0); got != "" {
		t.Errorf("a whole local limit: %q, want none", got)
	}
}

// The outage finding says how the limit decided (open, closed, on its
// fallback), when the store was unavailable (down for the outages' time
// within the run, slower than its timeout) and what each class got through;
// nothing when no decision met an unavailable store.
func TestOutageFindingWords(t *testing.T) {
	lt := sim.LimitTopology{Limit: "per_user", Unavailable: sim.StoreCounts{Open: 3},
		Classes: []sim.OutageClass{{Name: "api", Decided: 5, Admitted: 3}, {Name: "idle"}}}
	for _, tc := range []struct {
		name  string
		mode  sim.FailMode
		store sim.Store
		want  string
	}{
		{"open, down", sim.FailOpen, sim.Store{Outages: []sim.Outage{{From: time.Second, To: 3 * time.Second}}},
			"while the store was unavailable (down 2s), per_user failed open: api made 5 attempts and 3 got through"},
		{"closed, timeout", sim.FailClosed, sim.Store{Timeout: 50 * time.Millisecond},
			"while the store was unavailable (or slower than its 50ms timeout), per_user failed closed: api made 5 attempts and 3 got through"},
		{"local, both", sim.FailLocal, sim.Store{Timeout: 50 * time.Millisecond, Outages: []sim.Outage{{From: 9 * time.Second, To: 20 * time.Second}}},
			"while the store was unavailable (down 1s; or slower than its 50ms timeout), per_user fell back to 2 per 1s on each replica: api made 5 attempts and 3 got through"},
	} {
		r, l := topoResult(sim.StateShared, lt)
		r.Limits[0].OnStoreError, r.Limits[0].Fallback = tc.mode, algorithms.Policy{Limit: 2, Window: time.Second}
		got := outageFinding(r, &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 2}}, Store: tc.store}, 0, l)
		if got != tc.want {
			t.Errorf("%s: outageFinding =\n%q\nwant\n%q", tc.name, got, tc.want)
		}
	}
	none := lt
	none.Unavailable = sim.StoreCounts{}
	r, l := topoResult(sim.StateShared, none)
	if got := outageFinding(r, &sim.Topology{Store: sim.Store{Timeout: time.Millisecond}}, 0, l); got != "" {
		t.Errorf("no decision met an unavailable store: %q", got)
	}
	closed := lt
	closed.Unavailable = sim.StoreCounts{Closed: 1}
	r, l = topoResult(sim.StateShared, closed)
	if got := outageFinding(r, &sim.Topology{Store: sim.Store{Timeout: time.Millisecond}}, 0, l); got == "" {
		t.Errorf("decisions failed closed only: no outage finding")
	}
}

// A synced limit held exactly when nothing overshot one exact limiter, and
// overshot by how much otherwise.
func TestSyncedFindingBothSides(t *testing.T) {
	lt := sim.LimitTopology{Limit: "per_user", StoreCalls: 40, Fleet: sim.WindowPeak{Count: 10, Limit: 10, Start: time.Second}, Exact: sim.WindowPeak{Count: 10}}
	r, l := topoResult(sim.StateSynced, lt)
	r.Limits[0].SyncInterval = 100 * time.Millisecond
	want := "per_user, synced every 100ms for 40 store calls, held exactly: at most 10 in a 1s window, no more than one exact limiter admitted in any window on the same attempts (10)"
	if got := syncedFinding(r, 0, l); got != want {
		t.Errorf("no overshoot: %q, want %q", got, want)
	}
	l.Topology.Limits[0].Overshoot, l.Topology.Limits[0].Fleet.Count = 3, 13
	want = "per_user, synced every 100ms for 40 store calls, overshot by 3: 13 in the 1s window from t=1s, where one exact limiter admitted at most 10 in any window on the same attempts (limit 10)"
	if got := syncedFinding(r, 0, l); got != want {
		t.Errorf("overshoot 3: %q, want %q", got, want)
	}
}

// The backend saw more than the limit decided only when its busiest arrival
// window holds more than both the decided busiest window and the limit.
func TestArrivedFindingBounds(t *testing.T) {
	for _, tc := range []struct {
		arrived, fleet int64
		want           bool
	}{{12, 10, true}, {10, 9, false}, {11, 11, false}, {11, 12, false}} {
		lt := sim.LimitTopology{Limit: "per_user", Fleet: sim.WindowPeak{Count: tc.fleet, Limit: 10}, Arrived: sim.WindowPeak{Count: tc.arrived, Limit: 10, Start: time.Second}}
		r, l := topoResult(sim.StateShared, lt)
		got := arrivedFinding(r, 0, l)
		if (got != "") != tc.want {
			t.Errorf("arrived %d, decided %d, limit 10: %q, want a finding %v", tc.arrived, tc.fleet, got, tc.want)
		}
		if tc.want && !strings.HasPrefix(got, "the backend saw 12 admitted by per_user in the 1s window from t=1s, 1.2× the limit of 10, though the limit decided at most 10 in any window") {
			t.Errorf("arrived finding: %q", got)
		}
	}
}

// A local-replicas finding says "its share" of a divided limit, and adds the
// busiest single replica only when it admitted less than the fleet.
func TestLocalFindingWording(t *testing.T) {
	topo := &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 3}}}
	lt := sim.LimitTopology{Limit: "per_user", Fleet: sim.WindowPeak{Count: 20, Limit: 10, Start: time.Second, End: 2 * time.Second},
		Replica: sim.WindowPeak{Count: 8, Limit: 10}}
	r, l := topoResult(sim.StateLocal, lt)
	got := localFinding(r, topo, 0, l)
	if !strings.Contains(got, "each counting it alone") || !strings.HasSuffix(got, ", while no single replica admitted more than 8 (0.8×) in any window") {
		t.Errorf("whole limit, busiest replica 8: %q", got)
	}
	r.Limits[0].LocalLimit = sim.LocalDivided
	l.Topology.Limits[0].Replica.Count = 20
	got = localFinding(r, topo, 0, l)
	if !strings.Contains(got, "each counting its share of it alone") || strings.Contains(got, "no single replica") {
		t.Errorf("divided limit, busiest replica as the fleet: %q", got)
	}
}

// The Retry-After table appears when any lane, not only the first, had a
// retry come back when told.
func TestRetryAfterTableFromAnyLane(t *testing.T) {
	var b bytes.Buffer
	writeRetryAfter(&b, sim.Result{Lanes: []sim.LaneResult{
		{Lane: sim.LaneGCRA, RetryAfter: sim.RetryAfterStats{Given: 3}},
		{Lane: sim.LaneTokenBucket, RetryAfter: sim.RetryAfterStats{Given: 2, RetriedAt: 1}},
	}})
	if !strings.Contains(b.String(), "retries that came back when told") {
		t.Errorf("the second lane's retry came back when told, yet no table: %q", b.String())
	}
}
