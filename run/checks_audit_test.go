package run

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// The rate metrics divide what their names say: success per unique request,
// refused and shed per attempt, admitted per second of the duration (not of
// the drain); a p99 with no successes measures nothing and fails.
func TestAuditChecksDivideWhatTheySay(t *testing.T) {
	l := sim.LaneResult{Lane: sim.LaneTokenBucket, Name: "token_bucket",
		Unique: 10, Attempts: 40, Admitted: 20, Refused: 16, Shed: 4, Succeeded: 8,
		Classes: []sim.ClassResult{
			{Name: "users", Unique: 10, Attempts: 40, Admitted: 20, Refused: 16, Shed: 4, Succeeded: 8},
			{Name: "idle"},
		}}
	l.Classes[0].TimeToSuccess.Count, l.Classes[0].TimeToSuccess.P99 = 8, 300*time.Millisecond
	r := &sim.Result{Duration: 4 * time.Second, Lanes: []sim.LaneResult{l}}
	for _, tc := range []struct {
		metric scenarios.Metric
		class  string
		want   float64
	}{
		{scenarios.SuccessRate, "", 0.8},
		{scenarios.RefusedRate, "", 0.4},
		{scenarios.ShedRate, "", 0.1},
		{scenarios.AdmittedRate, "", 5},
		{scenarios.SuccessRate, "idle", 0},
	} {
		got := Checks([]scenarios.Check{{Metric: tc.metric, Class: tc.class, Op: ">=", Want: 0}}, r)
		if len(got) != 1 || got[0].Got != tc.want || got[0].None {
			t.Errorf("%s %s: %+v, want %v", tc.metric, tc.class, got, tc.want)
		}
	}
	// p99_time_to_success without a class: one result per class; the idle
	// class, with no success, measures nothing and fails whatever the threshold.
	got := Checks([]scenarios.Check{{Metric: scenarios.P99TimeToSuccess, Op: "<=", Want: float64(time.Hour)}}, r)
	if len(got) != 2 || got[0].Class != "users" || !got[0].Pass || got[0].Got != float64(300*time.Millisecond) ||
		got[1].Class != "idle" || !got[1].None || got[1].Pass {
		t.Errorf("p99 per class: %+v, want users passing at 300ms and idle failing with nothing to measure", got)
	}
	if n := Failed(got); n != 1 {
		t.Errorf("Failed = %d, want 1", n)
	}
}

// A check naming a lane measures that lane alone; one naming none, every lane.
func TestAuditChecksLaneFilter(t *testing.T) {
	r := &sim.Result{Duration: time.Second, Lanes: []sim.LaneResult{
		{Lane: sim.LaneTokenBucket, Name: "token_bucket", Peak: sim.WindowPeak{Ratio: 1.5}},
		{Lane: sim.LaneGCRA, Name: "gcra", Peak: sim.WindowPeak{Ratio: 0.5}},
	}}
	all := Checks([]scenarios.Check{{Metric: scenarios.PeakRatio, Op: "<=", Want: 1}}, r)
	if len(all) != 2 || all[0].Pass || !all[1].Pass {
		t.Errorf("peak_ratio <= 1 on every lane: %+v, want token_bucket failing and gcra passing", all)
	}
	one := Checks([]scenarios.Check{{Lane: "gcra", Metric: scenarios.PeakRatio, Op: "<=", Want: 1}}, r)
	if len(one) != 1 || one[0].Lane != "gcra" || !one[0].Pass {
		t.Errorf("lane gcra: %+v, want gcra alone, passing", one)
	}
}
