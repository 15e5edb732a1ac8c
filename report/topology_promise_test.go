package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// fleetPhrase: nothing without a topology; "1 replica" singular, "N replicas"
// otherwise; later fleet sizes "from t="; the routing; the store atomic or
// read-then-write, its mean round trip and timeout only when set, each outage;
// its remedies when set.
func TestPromiseFleetPhrase(t *testing.T) {
	ms := time.Millisecond
	for _, tc := range []struct {
		name string
		t    *sim.Topology
		want string
	}{
		{"nil", nil, ""},
		{"no replicas", &sim.Topology{}, ""},
		{"doc example", &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 4}},
			Store: sim.Store{Latency: sim.Service{Mean: ms}, Outages: []sim.Outage{{From: 10 * time.Second, To: 40 * time.Second}}}},
			" (4 replicas, round robin; store atomic, 1ms mean round trip, down t=10s–40s)"},
		{"one replica", &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 1}}}, " (1 replica, round robin; store atomic)"},
		{"two replicas", &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 2}}, Routing: sim.RoutingRandom},
			" (2 replicas, random routing; store atomic)"},
		{"scaled, hashed, racy, timeout", &sim.Topology{
			Replicas: []sim.ReplicaStep{{Count: 2}, {At: 30 * time.Second, Count: 6}},
			Routing:  sim.RoutingHash, HashKey: sim.KeyIP,
			Store: sim.Store{Racy: true, Timeout: 50 * ms}},
			" (2 replicas, 6 from t=30s, routed by " + sim.KeyIP.String() + "; store read-then-write, timeout 50ms)"},
		{"remedies", &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 3}},
			Store: sim.Store{Breaker: sim.Breaker{Failures: 3, Window: time.Second, Cooldown: 5 * time.Second, Probes: 2}, RefusalCache: true, Lease: 5}},
			" (3 replicas, round robin; store atomic, breaker 3 failures in 1s open 5s, refusal cache, leases of 5)"},
		{"restarts, partitions, a health check", &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 3}},
			Store: sim.Store{Timeout: 50 * ms, Restarts: []time.Duration{30 * time.Second},
				Outages: []sim.Outage{{From: 10 * time.Second, To: 20 * time.Second, Flush: true}},
				Partitions: []sim.Partition{{From: 5 * time.Second, To: 6 * time.Second, Replicas: []int{1}},
					{From: 7 * time.Second, To: 8 * time.Second, Replicas: []int{0, 2}, Hung: true}}},
			Health: &sim.HealthCheck{Interval: 5 * time.Second, UnhealthyAfter: 2}},
			" (3 replicas, round robin; store atomic, timeout 50ms, down t=10s–20s and back empty, restarted t=30s, replica 1 cut off t=5s–6s, replicas 0 and 2 cut off t=7s–8s (hung); health-checked on /health every 5s (out after 2 failures, back after 1 pass))"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := fleetPhrase(tc.t); got != tc.want {
				t.Errorf("fleetPhrase = %q, want %q", got, tc.want)
			}
		})
	}
}

// stateWords: where a limit's state lives, as its doc says.
func TestPromiseStateWords(t *testing.T) {
	fb := algorithms.Policy{Limit: 4, Window: time.Second}
	for _, tc := range []struct {
		name string
		l    sim.Limit
		want string
	}{
		{"local whole", sim.Limit{}, "local, each replica enforcing all of it"},
		{"local divided", sim.Limit{LocalLimit: sim.LocalDivided}, "local, each replica enforcing it divided by the replica count"},
		{"shared open", sim.Limit{State: sim.StateShared}, "shared, fails open"},
		{"shared closed", sim.Limit{State: sim.StateShared, OnStoreError: sim.FailClosed}, "shared, fails closed"},
		{"shared local fallback", sim.Limit{State: sim.StateShared, OnStoreError: sim.FailLocal, Fallback: fb},
			"shared, falls back to 4 per 1s on each replica"},
		{"shared divided fallback", sim.Limit{State: sim.StateShared, OnStoreError: sim.FailLocal, LocalLimit: sim.LocalDivided, Fallback: fb},
			"shared, falls back to 4 per 1s divided over the replicas"},
		{"synced", sim.Limit{State: sim.StateSynced, SyncInterval: time.Second}, "synced every 1s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := stateWords(tc.l); got != tc.want {
				t.Errorf("stateWords = %q, want %q", got, tc.want)
			}
		})
	}
}

// peakCell: "80 (8×)", the ratio without trailing zeros.
func TestPromisePeakCell(t *testing.T) {
	for _, tc := range []struct {
		p    sim.WindowPeak
		want string
	}{
		{sim.WindowPeak{Count: 80, Limit: 10}, "80 (8×)"},
		{sim.WindowPeak{Count: 15, Limit: 10}, "15 (1.5×)"},
		{sim.WindowPeak{Count: 10, Limit: 10}, "10 (1×)"},
	} {
		if got := peakCell(tc.p); got != tc.want {
			t.Errorf("peakCell(%d/%d) = %q, want %q", tc.p.Count, tc.p.Limit, got, tc.want)
		}
	}
}

// ruleLabel: "per-user: enforced", "per-user: 10 per 1s, burst 10, shadow";
// the burst is the effective one.
func TestPromiseRuleLabel(t *testing.T) {
	r := sim.Result{Limits: []sim.Limit{{Name: "a"}, {Name: "per-user"}}}
	for _, tc := range []struct {
		ch   sim.RuleChange
		want string
	}{
		{sim.RuleChange{Limit: 1}, "per-user: enforced"},
		{sim.RuleChange{Limit: 1, Shadow: true}, "per-user: shadow"},
		{sim.RuleChange{Limit: 1, Shadow: true, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}, "per-user: 10 per 1s, burst 10, shadow"},
		{sim.RuleChange{Limit: 0, Policy: algorithms.Policy{Limit: 10, Window: time.Minute, Burst: 3}}, "a: 10 per 1m, burst 3, enforced"},
	} {
		if got := ruleLabel(r, tc.ch); got != tc.want {
			t.Errorf("ruleLabel(%+v) = %q, want %q", tc.ch, got, tc.want)
		}
	}
}

// keyPhrase names the key of an over-limit window, but not the global one or none.
func TestPromiseKeyPhrase(t *testing.T) {
	for k, want := range map[string]string{"": "", "global": "", "u1": " (key u1)"} {
		if got := keyPhrase(k); got != want {
			t.Errorf("keyPhrase(%q) = %q, want %q", k, got, want)
		}
	}
}

// The retry sentence writes the amplification with at most two decimals.
func TestPromiseVerdictRetryAmplificationDecimals(t *testing.T) {
	r := sim.Result{Limits: []sim.Limit{{Policy: algorithms.Policy{Limit: 10, Window: time.Second}}}}
	l := sim.LaneResult{Lane: sim.LaneGCRA, Attempts: 10, Admitted: 10, Peak: sim.WindowPeak{Count: 5, Limit: 10},
		RetryAmplification: 1.256, AllDoneAt: 2500 * time.Millisecond}
	if v := laneVerdict(r, l).Text; !strings.Contains(v, "Retries made it 1.26 attempts per request; all done at t=2.5s.") {
		t.Errorf("verdict %q lacks the amplification to two decimals", v)
	}
	l.RetryAmplification = 2
	if v := laneVerdict(r, l).Text; !strings.Contains(v, "Retries made it 2 attempts per request") {
		t.Errorf("verdict %q: a whole amplification should have no decimals", v)
	}
}

// checks: "N of M passed", "pass"/"FAIL", "all" for no class, the check as
// written, "none (no request succeeded)" when nothing was measured.
func TestPromiseChecksSection(t *testing.T) {
	ok := run.CheckResult{Check: scenarios.Check{Metric: scenarios.SuccessRate, Op: ">=", Want: 0.99, Text: "99%"},
		Lane: "gcra", Kind: sim.LaneGCRA, Got: 0.995, Pass: true}
	bad := run.CheckResult{Check: scenarios.Check{Metric: scenarios.P99TimeToSuccess, Op: "<=", Want: 1e9, Text: "1s"},
		Lane: "gcra", Kind: sim.LaneGCRA, Class: "free", None: true}
	if got := checksPassed([]run.CheckResult{ok, bad, ok}); got != "2 of 3 passed" {
		t.Errorf("checksPassed = %q, want 2 of 3 passed", got)
	}
	head, rows := checkRows([]run.CheckResult{ok, bad})
	if strings.Join(head, "|") != "result|lane|class|check|measured" {
		t.Errorf("check head = %v", head)
	}
	if rows[0][0] != "pass" || rows[1][0] != "FAIL" {
		t.Errorf("verdicts = %q, %q, want pass, FAIL", rows[0][0], rows[1][0])
	}
	if rows[0][2] != "all" || rows[1][2] != "free" {
		t.Errorf("classes = %q, %q, want all, free", rows[0][2], rows[1][2])
	}
	if rows[0][3] != "success_rate >= 99%" || rows[1][3] != "p99_time_to_success <= 1s" {
		t.Errorf("checks = %q, %q", rows[0][3], rows[1][3])
	}
	if rows[1][4] != "none (no request succeeded)" {
		t.Errorf("measured of nothing = %q", rows[1][4])
	}
	if rows[0][4] == "none (no request succeeded)" || !strings.HasSuffix(rows[0][4], "%") {
		t.Errorf("measured success rate = %q, want a percentage", rows[0][4])
	}
	var b bytes.Buffer
	writeChecks(&b, nil, 0)
	if b.Len() != 0 {
		t.Errorf("no checks, yet %q", b.String())
	}
	writeChecks(&b, []run.CheckResult{ok, bad}, 0)
	if !strings.HasPrefix(b.String(), "\nchecks: 1 of 2 passed\n") {
		t.Errorf("checks section opens %q", b.String())
	}
}

// checksJSON gives p99_time_to_success in seconds (nanoseconds inside), other
// metrics as measured; checkCounts counts one lane and class only.
func TestPromiseChecksJSONAndCounts(t *testing.T) {
	rs := []run.CheckResult{
		{Check: scenarios.Check{Metric: scenarios.P99TimeToSuccess, Op: "<=", Want: 2e9}, Lane: "a", Got: 5e8, Pass: true},
		{Check: scenarios.Check{Metric: scenarios.SuccessRate, Op: ">=", Want: 0.9}, Lane: "a", Got: 0.5},
		{Check: scenarios.Check{Metric: scenarios.SuccessRate, Op: ">=", Want: 0.9}, Lane: "a", Class: "c", Got: 0.95, Pass: true},
		{Check: scenarios.Check{Metric: scenarios.SuccessRate, Op: ">=", Want: 0.9}, Lane: "b", Got: 0.1},
	}
	js := checksJSON(rs)
	if js[0].Want != 2 || js[0].Got != 0.5 {
		t.Errorf("p99 check in JSON: want %v got %v, want 2 and 0.5 seconds", js[0].Want, js[0].Got)
	}
	if js[1].Want != 0.9 || js[1].Got != 0.5 {
		t.Errorf("success rate in JSON: want %v got %v, want 0.9 and 0.5", js[1].Want, js[1].Got)
	}
	for _, tc := range []struct {
		lane, class  string
		passed, fail string
	}{{"a", "", "1", "1"}, {"a", "c", "1", "0"}, {"b", "", "0", "1"}, {"b", "c", "0", "0"}} {
		p, f := checkCounts(rs, tc.lane, tc.class)
		if p != tc.passed || f != tc.fail {
			t.Errorf("checkCounts(%q, %q) = %s, %s, want %s, %s", tc.lane, tc.class, p, f, tc.passed, tc.fail)
		}
	}
}

// ClassOrAll escapes a class name for the terminal.
func TestPromiseClassOrAllEscapes(t *testing.T) {
	if got := ClassOrAll("a\x1b[31m"); strings.ContainsRune(got, 0x1b) {
		t.Errorf("ClassOrAll kept an escape: %q", got)
	}
}

// hasState looks at every limit of every lane in a topology; usesStore means
// shared or synced, hasShared shared only; anyTopology skips runs without a result.
func TestPromiseTopologyPresence(t *testing.T) {
	withStates := func(states ...sim.StateKind) sim.Result {
		var lts []sim.LimitTopology
		for _, s := range states {
			lts = append(lts, sim.LimitTopology{State: s})
		}
		return sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneAIMD}, {Lane: sim.LaneGCRA, Topology: &sim.TopologyResult{Limits: lts}}}}
	}
	for _, tc := range []struct {
		name          string
		r             sim.Result
		store, shared bool
		topology      bool
	}{
		{"no topology", sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneGCRA}}}, false, false, false},
		{"local", withStates(sim.StateLocal), false, false, true},
		{"synced second", withStates(sim.StateLocal, sim.StateSynced), true, false, true},
		{"shared second", withStates(sim.StateLocal, sim.StateShared), true, true, true},
	} {
		if got := usesStore(tc.r); got != tc.store {
			t.Errorf("%s: usesStore = %v, want %v", tc.name, got, tc.store)
		}
		if got := hasShared(tc.r); got != tc.shared {
			t.Errorf("%s: hasShared = %v, want %v", tc.name, got, tc.shared)
		}
		if got := hasTopology(tc.r); got != tc.topology {
			t.Errorf("%s: hasTopology = %v, want %v", tc.name, got, tc.topology)
		}
	}
	r := withStates(sim.StateLocal)
	if !anyTopology([]Run{{}, {Result: &r}}) || anyTopology([]Run{{}}) {
		t.Error("anyTopology should find the second run's topology and none in a run without a result")
	}
}

// Topology columns: "-" in the tables and empty in the CSV for a lane without a
// topology; the store-down counts sum every limit of the chain, a class's row
// only its own class, the lane's row all of them.
func TestPromiseTopologyColumnsCells(t *testing.T) {
	byCSV := map[string]laneColumn{}
	for _, c := range laneColumns {
		if c.csv != "" {
			byCSV[c.csv] = c
		}
	}
	plain := &sim.LaneResult{Lane: sim.LaneAIMD}
	for _, name := range []string{"replicas", "replica_peak_count", "store_calls", "store_down_open", "store_down_decided"} {
		c := byCSV[name]
		if got := c.lane(plain); got != "" {
			t.Errorf("%s of a lane without topology = %q, want empty", name, got)
		}
		if c.text != nil && c.text(plain) != "-" {
			t.Errorf("%s cell of a lane without topology = %q, want -", name, c.text(plain))
		}
	}
	l := &sim.LaneResult{Lane: sim.LaneGCRA, Classes: []sim.ClassResult{{Name: "a"}, {Name: "b"}},
		Topology: &sim.TopologyResult{Replicas: 3, Limits: []sim.LimitTopology{
			{Unavailable: sim.StoreCounts{Open: 2, Closed: 1}, Classes: []sim.OutageClass{{Name: "a", Decided: 4, Admitted: 1}, {Name: "b", Decided: 6, Admitted: 2}}},
			{Unavailable: sim.StoreCounts{Open: 5, Local: 7}, Classes: []sim.OutageClass{{Name: "a", Decided: 10}, {Name: "b", Decided: 20, Admitted: 3}}},
		}}}
	for name, want := range map[string]string{"store_down_open": "7", "store_down_closed": "1", "store_down_local": "7",
		"store_down_decided": "40", "store_down_admitted": "6", "replicas": "3"} {
		if got := byCSV[name].lane(l); got != want {
			t.Errorf("lane %s = %q, want %q", name, got, want)
		}
	}
	dec := byCSV["store_down_decided"]
	if got := dec.of(l, &l.Classes[0]); got != "14" {
		t.Errorf("class a store_down_decided = %q, want 14", got)
	}
	if got := dec.of(l, &l.Classes[1]); got != "26" {
		t.Errorf("class b store_down_decided = %q, want 26", got)
	}
	if got := dec.of(plain, &sim.ClassResult{}); got != "" {
		t.Errorf("class of a lane without topology = %q, want empty", got)
	}
}
