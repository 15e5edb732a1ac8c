package report

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// shadowLane is a token-bucket lane whose shadow limits would have refused n
// attempts of class "api".
func shadowLane(n int64) sim.LaneResult {
	return sim.LaneResult{Lane: sim.LaneTokenBucket, Name: "token_bucket", ShadowRefused: n,
		Classes: []sim.ClassResult{{Name: "api", ShadowRefused: n}}}
}

// The shadow finding says "shadow limits" when two limits of the chain are a
// shadow at some time, whether from the start or from a rule push, and "a
// shadow limit" when one is; a limit that began a shadow stays counted after
// a rule enforces it.
func TestShadowFindingCountsEveryLimitEverAShadow(t *testing.T) {
	pol := algorithms.Policy{Limit: 10, Window: time.Second}
	for _, tc := range []struct {
		name   string
		limits []sim.Limit
		rules  []sim.RuleChange
		want   string
	}{
		{"one shadow", []sim.Limit{{Name: "a", Policy: pol, Shadow: true}, {Name: "b", Policy: pol}}, nil, "a shadow limit would"},
		{"two shadows", []sim.Limit{{Name: "a", Policy: pol, Shadow: true}, {Name: "b", Policy: pol, Shadow: true}}, nil, "shadow limits would"},
		{"a shadow enforced later", []sim.Limit{{Name: "a", Policy: pol, Shadow: true}, {Name: "b", Policy: pol, Shadow: true}},
			[]sim.RuleChange{{At: time.Second, Limit: 0}}, "shadow limits would"},
		{"an enforced limit made a shadow", []sim.Limit{{Name: "a", Policy: pol}, {Name: "b", Policy: pol, Shadow: true}},
			[]sim.RuleChange{{At: time.Second, Limit: 0, Shadow: true}}, "shadow limits would"},
		{"a shadow made a shadow again", []sim.Limit{{Name: "a", Policy: pol, Shadow: true}, {Name: "b", Policy: pol}},
			[]sim.RuleChange{{At: time.Second, Limit: 0, Shadow: true}}, "a shadow limit would"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := sim.Result{Duration: 10 * time.Second, Limits: tc.limits, Rules: tc.rules, Lanes: []sim.LaneResult{shadowLane(3)}}
			got := shadowFindings(r)
			if len(got) != 1 || !strings.Contains(got[0], tc.want) {
				t.Errorf("shadowFindings = %q, want one containing %q", got, tc.want)
			}
		})
	}
}

// A rule push that sets a policy states its effective burst: the limit when
// the burst is left 0, the burst when one is given.
func TestRuleFindingStatesTheEffectiveBurst(t *testing.T) {
	for _, tc := range []struct {
		p    algorithms.Policy
		want string
	}{
		{algorithms.Policy{Limit: 10, Window: time.Second}, "set a to 10 per 1s, burst 10 "},
		{algorithms.Policy{Limit: 10, Window: time.Second, Burst: 25}, "set a to 10 per 1s, burst 25 "},
	} {
		r := sim.Result{Duration: 10 * time.Second, Limits: []sim.Limit{{Name: "a", Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
			Rules: []sim.RuleChange{{At: 2 * time.Second, Limit: 0, Policy: tc.p}}}
		got := ruleFindings(r)
		if len(got) != 1 || !strings.Contains(got[0], tc.want) || !strings.HasPrefix(got[0], "at t=2s a rule push ") {
			t.Errorf("policy %+v: ruleFindings = %q, want one at t=2s containing %q", tc.p, got, tc.want)
		}
	}
}

// A rule push without a policy says only what it made of the limit.
func TestRuleFindingWithoutPolicy(t *testing.T) {
	r := sim.Result{Limits: []sim.Limit{{Name: "a"}},
		Rules: []sim.RuleChange{{At: time.Second, Limit: 0, Shadow: true}, {At: 3 * time.Second, Limit: 0}}}
	got := ruleFindings(r)
	want := []string{"at t=1s a rule push made a a shadow (it refuses nothing from then on)", "at t=3s a rule push made a enforced"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("ruleFindings = %q, want %q", got, want)
	}
	for _, f := range ruleFindings(sim.Result{Limits: []sim.Limit{{Name: "a"}},
		Rules: []sim.RuleChange{{At: time.Second, Limit: 0, Policy: algorithms.Policy{Limit: 1, Window: time.Second}}}}) {
		if !strings.HasSuffix(f, "(every key starting afresh), enforced") {
			t.Errorf("a policy push that enforces: %q, want it to end \"(every key starting afresh), enforced\"", f)
		}
	}
}

// The checks JSON gives a p99 check's want and got both in seconds; other
// metrics are written in their own unit unchanged.
func TestChecksJSONUnits(t *testing.T) {
	got := checksJSON([]run.CheckResult{
		{Check: scenarios.Check{Metric: scenarios.P99TimeToSuccess, Op: "<=", Want: 2e9, Text: "2s"}, Lane: "token_bucket", Got: 1.5e9, Pass: true},
		{Check: scenarios.Check{Metric: scenarios.SuccessRate, Op: ">=", Want: 0.99, Text: "99%"}, Lane: "token_bucket", Got: 0.9},
	})
	if len(got) != 2 {
		t.Fatalf("checksJSON gave %d checks, want 2", len(got))
	}
	if got[0].Want != 2 || got[0].Got != 1.5 {
		t.Errorf("p99 check: want %v, got %v in the JSON; want 2 and 1.5 (seconds)", got[0].Want, got[0].Got)
	}
	if got[1].Want != 0.99 || got[1].Got != 0.9 {
		t.Errorf("success_rate check: want %v, got %v in the JSON; want 0.99 and 0.9 (fractions)", got[1].Want, got[1].Got)
	}
	if !got[0].Pass || got[1].Pass || got[0].Lane != "token_bucket" {
		t.Errorf("checksJSON = %+v: pass and lane not carried over", got)
	}
}

// topoResult is a result of one local or shared limit of 10 per 1s whose one
// lane has topology figures lt.
func topoResult(state sim.StateKind, lt sim.LimitTopology) (sim.Result, sim.LaneResult) {
	l := sim.LaneResult{Lane: sim.LaneTokenBucket, Name: "token_bucket",
		Topology: &sim.TopologyResult{Replicas: 2, Limits: []sim.LimitTopology{lt}}}
	r := sim.Result{Duration: 10 * time.Second, Limits: []sim.Limit{{Name: "per_user", State: state, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Lanes: []sim.LaneResult{l}}
	return r, l
}

// The local-replicas finding needs a fleet over the limit and two replicas or
// more in its window: one replica counting alone is the limit itself.
func TestLocalFindingNeedsTwoReplicas(t *testing.T) {
	lt := sim.LimitTopology{Limit: "per_user", Fleet: sim.WindowPeak{Count: 20, Limit: 10, Start: time.Second, End: 2 * time.Second},
		Replica: sim.WindowPeak{Count: 10, Limit: 10}}
	r, l := topoResult(sim.StateLocal, lt)
	for _, tc := range []struct {
		replicas []sim.ReplicaStep
		want     string // "": no finding
	}{
		{[]sim.ReplicaStep{{At: 0, Count: 1}}, ""},
		{[]sim.ReplicaStep{{At: 0, Count: 2}}, "with 2 local replicas each counting it alone the fleet admitted 2× the per_user limit of 10"},
		{[]sim.ReplicaStep{{At: 0, Count: 1}, {At: 1500 * time.Millisecond, Count: 3}}, "with 3 local replicas"},
		{[]sim.ReplicaStep{{At: 0, Count: 3}, {At: time.Second, Count: 1}}, ""}, // the window is after the fleet shrank
	} {
		got := localFinding(r, &sim.Topology{Replicas: tc.replicas}, 0, l)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("replicas %v: localFinding = %q, want %q", tc.replicas, got, tc.want)
		}
	}
	within := lt
	within.Fleet.Count = 10
	r, l = topoResult(sim.StateLocal, within)
	if got := localFinding(r, &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 4}}}, 0, l); got != "" {
		t.Errorf("a fleet at its limit: localFinding = %q, want none", got)
	}
}

// The racy-store finding is said of an over-admitting racy store only when no
// decision was taken open or on a local fallback while the store was
// unavailable (those may have let the excess through instead); failing closed
// lets nothing through, so it keeps the finding.
func TestRacyFindingWithheldOnFallbacks(t *testing.T) {
	topo := &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 2}}, Store: sim.Store{Racy: true}}
	base := sim.LimitTopology{Limit: "per_user", Fleet: sim.WindowPeak{Count: 15, Limit: 10, Start: time.Second}, Exact: sim.WindowPeak{Count: 10}, Overshoot: 5}
	for _, tc := range []struct {
		name string
		u    sim.StoreCounts
		say  bool
	}{
		{"no outage", sim.StoreCounts{}, true},
		{"failed closed", sim.StoreCounts{Closed: 4}, true},
		{"failed open", sim.StoreCounts{Open: 4}, false},
		{"fell back to local", sim.StoreCounts{Local: 4}, false},
	} {
		lt := base
		lt.Unavailable = tc.u
		r, l := topoResult(sim.StateShared, lt)
		got := racyFinding(r, topo, 0, l)
		if tc.say != (got != "") {
			t.Errorf("%s: racyFinding = %q, want a finding %v", tc.name, got, tc.say)
		}
		if tc.say && !strings.Contains(got, "per_user was over-admitted across the fleet: 15 in the 1s window from t=1s") {
			t.Errorf("%s: racyFinding = %q", tc.name, got)
		}
	}
	lt := base
	lt.Overshoot = 0
	r, l := topoResult(sim.StateShared, lt)
	if got := racyFinding(r, topo, 0, l); got != "" {
		t.Errorf("no overshoot: racyFinding = %q, want none", got)
	}
	r, l = topoResult(sim.StateShared, base)
	if got := racyFinding(r, &sim.Topology{Replicas: topo.Replicas}, 0, l); got != "" {
		t.Errorf("an atomic store: racyFinding = %q, want none", got)
	}
}
