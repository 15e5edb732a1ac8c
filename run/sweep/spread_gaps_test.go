package sweep

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// gapsPoint is a point of two seeds of one lane and one class "users", each
// seed's figures measured by run.Measure on a hand-made result: success 0.8,
// refused 0.2 and shed 0.1 per attempt, 15 admitted per second, peak ratio
// 1.25; the class's p99 time to success p99s[k] in seed k.
func gapsPoint(p99s ...time.Duration) PointResult {
	var pt PointResult
	for k, p := range p99s {
		l := sim.LaneResult{Lane: sim.LaneTokenBucket, Name: "token_bucket",
			Attempts: 100, Unique: 50, Admitted: 60, Refused: 20, Shed: 10, Succeeded: 40, Peak: sim.WindowPeak{Ratio: 1.25},
			Classes: []sim.ClassResult{{Name: "users", Attempts: 100, Unique: 50, Succeeded: 40,
				TimeToSuccess: sim.Percentiles{Count: 40, P99: p, P50: p / 2, Max: p}}}}
		r := &sim.Result{Duration: 4 * time.Second, Lanes: []sim.LaneResult{l}}
		pt.Runs = append(pt.Runs, SeedRun{Seed: uint64(k + 1), Lanes: run.Measure(r)})
	}
	return pt
}

// A check over seeds compares the seeds' mean in the check's unit: a p99's
// threshold is a duration (nanoseconds) and its figure seconds; every other
// metric is compared as measured. Each threshold is tried just either side of
// the mean.
func TestGapsSpreadChecksUnits(t *testing.T) {
	pt := gapsPoint(1500*time.Millisecond, 1700*time.Millisecond) // mean 1.6s
	for _, tc := range []struct {
		metric     scenarios.Metric
		below, top float64 // thresholds a little under and over the mean, in the check's unit
		mean       float64 // the spread's mean, in the figure's unit
	}{
		{scenarios.SuccessRate, 0.79, 0.81, 0.8},
		{scenarios.RefusedRate, 0.19, 0.21, 0.2},
		{scenarios.ShedRate, 0.09, 0.11, 0.1},
		{scenarios.AdmittedRate, 14.9, 15.1, 15},
		{scenarios.PeakRatio, 1.2, 1.3, 1.25},
		{scenarios.P99TimeToSuccess, float64(1590 * time.Millisecond), float64(1610 * time.Millisecond), 1.6},
	} {
		for _, c := range []struct {
			op   string
			want float64
			pass bool
		}{{"<=", tc.top, true}, {"<=", tc.below, false}, {">=", tc.below, true}, {">=", tc.top, false}} {
			got := SpreadChecks([]scenarios.Check{{Metric: tc.metric, Op: c.op, Want: c.want}}, pt)
			if len(got) != 1 {
				t.Errorf("%s %s %v: %d results, want 1", tc.metric, c.op, c.want, len(got))
				continue
			}
			g := got[0]
			if g.Pass != c.pass || g.Spread.N != 2 || g.Spread.Mean < tc.mean*(1-1e-9) || g.Spread.Mean > tc.mean*(1+1e-9) {
				t.Errorf("%s %s %v: pass %v, spread %+v; want pass %v, mean %v over 2 seeds", tc.metric, c.op, c.want, g.Pass, g.Spread, c.pass, tc.mean)
			}
		}
	}
	// The brief's case: p99 <= 2s passes at 1.5s and fails at 2.5s.
	for _, tc := range []struct {
		p99  time.Duration
		pass bool
	}{{1500 * time.Millisecond, true}, {2500 * time.Millisecond, false}} {
		got := SpreadChecks([]scenarios.Check{{Metric: scenarios.P99TimeToSuccess, Op: "<=", Want: float64(2 * time.Second)}}, gapsPoint(tc.p99, tc.p99))
		if len(got) != 1 || got[0].Pass != tc.pass || got[0].Class != "users" {
			t.Errorf("p99 <= 2s at %v: %+v, want pass %v for users", tc.p99, got, tc.pass)
		}
	}
	if got := SpreadChecks([]scenarios.Check{{Metric: scenarios.SuccessRate, Op: ">=", Want: 0}}, PointResult{}); got != nil {
		t.Errorf("a point with no runs: %+v, want nil", got)
	}
}
