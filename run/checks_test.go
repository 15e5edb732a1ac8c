package run

import (
	"context"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

const checksScenario = `duration: 5s
lanes: [token_bucket, sliding_log]
limits:
  - limit: 10
    window: 1s
clients:
  - name: users
    count: 3
    arrivals:
      - kind: constant
        rate: 2/s
    retry: {kind: fixed, delay: 300ms, max_attempts: 3}
  - name: abuser
    arrivals:
      - kind: constant
        rate: 30/s
backend:
  capacity: 2
  service: {mean: 40ms}
`

// TestChecksMeasureTheRun checks every metric against the figure the run's
// result gives, recomputed here, and that a threshold at the measured value
// passes with >= and <= and fails with > and <.
func TestChecksMeasureTheRun(t *testing.T) {
	s, err := scenarios.Parse("c.yaml", []byte(checksScenario))
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb, users := &r.Lanes[0], r.Lanes[0].Classes[0]
	if users.Name != "users" {
		t.Fatalf("class 0 is %q", users.Name)
	}
	tests := []struct {
		metric scenarios.Metric
		class  string
		want   float64
	}{
		{scenarios.SuccessRate, "", float64(tb.Succeeded) / float64(tb.Unique)},
		{scenarios.SuccessRate, "users", float64(users.Succeeded) / float64(users.Unique)},
		{scenarios.RefusedRate, "", float64(tb.Refused) / float64(tb.Attempts)},
		{scenarios.RefusedRate, "users", float64(users.Refused) / float64(users.Attempts)},
		{scenarios.ShedRate, "", float64(tb.Shed) / float64(tb.Attempts)},
		{scenarios.ShedRate, "users", float64(users.Shed) / float64(users.Attempts)},
		{scenarios.AdmittedRate, "", float64(tb.Admitted) / r.Duration.Seconds()},
		{scenarios.AdmittedRate, "users", float64(users.Admitted) / r.Duration.Seconds()},
		{scenarios.P99TimeToSuccess, "users", float64(users.TimeToSuccess.P99)},
		{scenarios.PeakRatio, "", float64(tb.Peak.Count) / float64(tb.Peak.Limit)},
	}
	for _, tc := range tests {
		t.Run(string(tc.metric)+"/"+tc.class, func(t *testing.T) {
			if tc.want == 0 {
				t.Fatalf("the scenario gives %s 0, which tells nothing", tc.metric)
			}
			for _, op := range []struct {
				op   string
				pass bool
			}{{">=", true}, {"<=", true}, {">", false}, {"<", false}} {
				c := scenarios.Check{Lane: "token_bucket", Class: tc.class, Metric: tc.metric, Op: op.op, Want: tc.want}
				got := Checks([]scenarios.Check{c}, &r)
				if len(got) != 1 {
					t.Fatalf("%d results, want 1", len(got))
				}
				if got[0].Got != tc.want || got[0].Pass != op.pass || got[0].Lane != "token_bucket" || got[0].Kind != sim.LaneTokenBucket {
					t.Errorf("%s %s %v: got %v pass %v, want %v pass %v", tc.metric, op.op, tc.want, got[0].Got, got[0].Pass, tc.want, op.pass)
				}
			}
		})
	}
}

func TestChecksSpreadOverLanesAndClasses(t *testing.T) {
	s, err := scenarios.Parse("c.yaml", []byte(checksScenario+`checks:
  - {metric: success_rate, op: ">=", value: 0%}
  - {lane: sliding_log, metric: p99_time_to_success, op: "<", value: 1h}
`))
	if err != nil {
		t.Fatal(err)
	}
	o, err := Scenario(context.Background(), s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		lane  string
		class string
	}{{"token_bucket", ""}, {"sliding_log", ""}, {"sliding_log", "users"}, {"sliding_log", "abuser"}}
	if len(o.Checks) != len(want) {
		t.Fatalf("results %+v, want %d", o.Checks, len(want))
	}
	for i, w := range want {
		if got := o.Checks[i]; got.Lane != w.lane || got.Class != w.class || !got.Pass {
			t.Errorf("result %d: %s %q pass %v, want %s %q pass", i, got.Lane, got.Class, got.Pass, w.lane, w.class)
		}
	}
	if Failed(o.Checks) != 0 {
		t.Errorf("Failed = %d, want 0", Failed(o.Checks))
	}
}

func TestAP99OfNoSuccessFails(t *testing.T) {
	c := scenarios.Check{Metric: scenarios.P99TimeToSuccess, Op: "<", Want: 1e9}
	r := sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneGCRA, Classes: []sim.ClassResult{{Name: "x", Unique: 3}}}}}
	got := Checks([]scenarios.Check{c}, &r)
	if len(got) != 1 || got[0].Pass || !got[0].None || Failed(got) != 1 {
		t.Errorf("results %+v, want one failed with nothing measured", got)
	}
}

func TestLanesFlagMustKeepCheckedLanes(t *testing.T) {
	s, err := scenarios.Parse("c.yaml", []byte(checksScenario+"checks:\n  - {lane: sliding_log, metric: peak_ratio, op: \"<\", value: 2}\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = Overrides{Lanes: "token_bucket"}.Apply([]*scenarios.Scenario{s})
	want := "c.yaml:21: checks[0].lane: sliding_log is checked, and --lanes leaves it out"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
}

// A check that names a variant is measured on that lane alone, not on the
// other lanes of its algorithm.
func TestACheckNamesAVariant(t *testing.T) {
	s, err := scenarios.LoadBuiltin("choose-burst")
	if err != nil {
		t.Fatal(err)
	}
	s.Checks = []scenarios.Check{{Lane: "burst_20", Metric: scenarios.PeakRatio, Op: "<=", Want: 2}}
	o, err := Scenario(context.Background(), s, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(o.Checks) != 1 || o.Checks[0].Lane != "burst_20" || o.Checks[0].Kind != sim.LaneTokenBucket || o.Checks[0].Got != 2 || !o.Checks[0].Pass {
		t.Errorf("results %+v, want burst_20's peak ratio alone, 2, passing", o.Checks)
	}
}
