package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

const milli = time.Millisecond

// unitRun is a run whose every figure with a unit has a distinct known value.
func unitRun() Run {
	pol := algorithms.Policy{Limit: 10, Window: 2 * time.Second}
	pct := func(base time.Duration) sim.Percentiles {
		return sim.Percentiles{Count: 4, P50: base, P90: 2 * base, P99: 3 * base, Max: 4 * base, Mean: 5 * base}
	}
	l := sim.LaneResult{Lane: sim.LaneTokenBucket, Name: "token_bucket", Policy: pol,
		Attempts: 25, Unique: 20, Admitted: 15, Refused: 5, Shed: 5, Succeeded: 15,
		Delay: pct(10 * milli), Peak: sim.WindowPeak{Count: 15, Start: 1500 * milli, End: 3500 * milli, Limit: 10, Ratio: 1.5},
		TimeOverLimit: 750 * milli, AllDoneAt: 2250 * milli, RetryAmplification: 1.25,
		Backend: sim.BackendStats{Served: 10, Latency: pct(20 * milli), Utilisation: 0.5},
		Series:  []sim.Point{{Start: 0}, {Start: 250 * milli}},
		Classes: []sim.ClassResult{{Name: "api", Unique: 20, Attempts: 25, Succeeded: 15, Refused: 5, Shed: 5, FairShare: 18, TimeToSuccess: pct(100 * milli)}},
		Topology: &sim.TopologyResult{Replicas: 2, StoreCalls: 50, StoreCallsPerSecond: 12.5, StoreLatency: pct(milli),
			Limits: []sim.LimitTopology{{Limit: "per_user", Replica: sim.WindowPeak{Count: 8, Limit: 10, Ratio: 0.8}}}}}
	r := &sim.Result{Duration: 4 * time.Second, Bucket: 250 * milli, Limits: []sim.Limit{{Name: "per_user", Policy: pol}},
		Rules: []sim.RuleChange{{At: 1500 * milli, Limit: 0, Policy: algorithms.Policy{Limit: 5, Window: 500 * milli}}}, Lanes: []sim.LaneResult{l}}
	return Run{Scenario: &scenarios.Scenario{Name: "units"}, Result: r, Checks: []run.CheckResult{
		{Check: scenarios.Check{Metric: scenarios.P99TimeToSuccess, Op: "<=", Want: 2e9, Text: "2s"}, Lane: "token_bucket", Class: "api", Got: 3e8, Pass: true},
		{Check: scenarios.Check{Metric: scenarios.SuccessRate, Op: ">=", Want: 0.8, Text: "80%"}, Lane: "token_bucket", Got: 0.75},
	}}
}

// path walks a decoded JSON value by keys and indexes.
func path(t *testing.T, v any, steps ...any) any {
	t.Helper()
	for _, s := range steps {
		switch k := s.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				t.Fatalf("at %q: %T, not an object", k, v)
			}
			v = m[k]
		case int:
			a, ok := v.([]any)
			if !ok || k >= len(a) {
				t.Fatalf("at [%d]: %v, not a long enough array", k, v)
			}
			v = a[k]
		}
	}
	return v
}

// Every duration of the run JSON is in seconds (fields ending _s), the rates
// are fractions, fair_share is in requests and store_calls_per_s per second;
// the checks' want and got are in the metric's unit (seconds for p99).
func TestRunJSONUnits(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, []Run{unitRun()}); err != nil {
		t.Fatal(err)
	}
	var doc any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	run0 := path(t, doc, "runs", 0)
	for _, tc := range []struct {
		steps []any
		want  float64
	}{
		{[]any{"duration_s"}, 4}, {[]any{"bucket_s"}, 0.25},
		{[]any{"limits", 0, "window_s"}, 2}, {[]any{"limits", 0, "burst"}, 10},
		{[]any{"rule_changes", 0, "at_s"}, 1.5}, {[]any{"rule_changes", 0, "policy", "window_s"}, 0.5}, {[]any{"rule_changes", 0, "policy", "burst"}, 5},
		{[]any{"lanes", 0, "policy", "window_s"}, 2},
		{[]any{"lanes", 0, "delay", "p50_s"}, 0.01}, {[]any{"lanes", 0, "delay", "p90_s"}, 0.02}, {[]any{"lanes", 0, "delay", "p99_s"}, 0.03},
		{[]any{"lanes", 0, "delay", "max_s"}, 0.04}, {[]any{"lanes", 0, "delay", "mean_s"}, 0.05}, {[]any{"lanes", 0, "delay", "count"}, 4},
		{[]any{"lanes", 0, "peak", "start_s"}, 1.5}, {[]any{"lanes", 0, "peak", "end_s"}, 3.5}, {[]any{"lanes", 0, "peak", "ratio"}, 1.5},
		{[]any{"lanes", 0, "time_over_limit_s"}, 0.75}, {[]any{"lanes", 0, "all_done_s"}, 2.25}, {[]any{"lanes", 0, "retry_amplification"}, 1.25},
		{[]any{"lanes", 0, "backend", "latency", "p99_s"}, 0.06}, {[]any{"lanes", 0, "backend", "utilisation"}, 0.5},
		{[]any{"lanes", 0, "series", 1, "start_s"}, 0.25},
		{[]any{"lanes", 0, "classes", 0, "success_rate"}, 0.75}, {[]any{"lanes", 0, "classes", 0, "refused_rate"}, 0.2},
		{[]any{"lanes", 0, "classes", 0, "shed_rate"}, 0.2}, {[]any{"lanes", 0, "classes", 0, "fair_share"}, 18},
		{[]any{"lanes", 0, "classes", 0, "time_to_success", "p99_s"}, 0.3},
		{[]any{"lanes", 0, "topology", "store_calls_per_s"}, 12.5}, {[]any{"lanes", 0, "topology", "store_latency", "p99_s"}, 0.003},
		{[]any{"lanes", 0, "topology", "limits", 0, "replica_peak", "ratio"}, 0.8},
		{[]any{"checks", 0, "want"}, 2}, {[]any{"checks", 0, "got"}, 0.3},
		{[]any{"checks", 1, "want"}, 0.8}, {[]any{"checks", 1, "got"}, 0.75},
	} {
		got, ok := path(t, run0, tc.steps...).(float64)
		if !ok || !near(got, tc.want) {
			t.Errorf("run JSON %v = %v, want %v", tc.steps, path(t, run0, tc.steps...), tc.want)
		}
	}
}

// The CSV writes the same figures in the same units: seconds for the _s
// columns, fractions for the rates, requests for fair_share, per second for
// store_calls_per_s; a class's row has the class's figures.
func TestRunCSVUnits(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCSV(&b, []Run{unitRun()}); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(rows) != 3 {
		t.Fatalf("%d rows, %v; want the head, the lane and its class", len(rows), err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	for _, tc := range []struct {
		row       int
		col, want string
	}{
		{1, "success_rate", "0.75"}, {1, "refused_rate", "0.2"}, {1, "shed_rate", "0.2"},
		{1, "p99_delay_s", "0.03"}, {1, "peak_start_s", "1.5"}, {1, "peak_ratio", "1.5"}, {1, "all_done_s", "2.25"},
		{1, "backend_p99_latency_s", "0.06"}, {1, "retry_amplification", "1.25"},
		{1, "replica_peak_ratio", "0.8"}, {1, "store_calls_per_s", "12.5"}, {1, "store_p50_s", "0.001"}, {1, "store_p99_s", "0.003"},
		{1, "p99_to_success_s", ""}, {1, "checks_passed", "0"}, {1, "checks_failed", "1"},
		{2, "class", "api"}, {2, "success_rate", "0.75"}, {2, "refused_rate", "0.2"},
		{2, "p50_to_success_s", "0.1"}, {2, "p99_to_success_s", "0.3"}, {2, "fair_share", "18"},
		{2, "checks_passed", "1"}, {2, "checks_failed", "0"},
	} {
		i, ok := col[tc.col]
		if !ok {
			t.Errorf("no column %s", tc.col)
			continue
		}
		if got := rows[tc.row][i]; got != tc.want {
			t.Errorf("CSV row %d, %s = %q, want %q", tc.row, tc.col, got, tc.want)
		}
	}
}
