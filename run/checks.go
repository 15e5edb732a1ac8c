package run

import (
	"fmt"
	"slices"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// CheckResult is one check measured on one lane (and class) of a run.
type CheckResult struct {
	scenarios.Check
	Lane  string       // the lane's name
	Kind  sim.LaneKind // the lane's algorithm
	Class string       // "": the lane's totals
	Got   float64      // in the metric's unit; meaningless when None
	None  bool         // nothing to measure (no successes for a p99): the check fails
	Pass  bool
}

// Checks measures every check of the scenario on r: a check without a lane
// gives one result per lane, and p99_time_to_success without a class one per class.
func Checks(checks []scenarios.Check, r *sim.Result) []CheckResult {
	var out []CheckResult
	for _, c := range checks {
		for i := range r.Lanes {
			l := &r.Lanes[i]
			if c.Lane != "" && c.Lane != l.Name {
				continue
			}
			for _, cr := range measure(c, l, r.Duration) {
				cr.Pass = !cr.None && c.Passes(cr.Got)
				out = append(out, cr)
			}
		}
	}
	return out
}

// Failed counts the results that did not pass.
func Failed(results []CheckResult) int {
	n := 0
	for _, r := range results {
		if !r.Pass {
			n++
		}
	}
	return n
}

func measure(c scenarios.Check, l *sim.LaneResult, duration time.Duration) []CheckResult {
	base := CheckResult{Check: c, Lane: l.Name, Kind: l.Lane, Class: c.Class}
	if c.Metric == scenarios.PeakRatio {
		base.Got = l.Peak.Ratio
		return []CheckResult{base}
	}
	if c.Metric == scenarios.P99TimeToSuccess {
		var out []CheckResult
		for _, cl := range l.Classes {
			if c.Class != "" && cl.Name != c.Class {
				continue
			}
			cr := base
			cr.Class = cl.Name
			cr.Got, cr.None = float64(cl.TimeToSuccess.P99), cl.TimeToSuccess.Count == 0
			out = append(out, cr)
		}
		return out
	}
	counts := laneCounts(l)
	if c.Class != "" {
		i := slices.IndexFunc(l.Classes, func(cl sim.ClassResult) bool { return cl.Name == c.Class })
		if i < 0 {
			panic(fmt.Sprintf("run.Checks: class %q not in lane %s", c.Class, l.Lane))
		}
		counts = classCounts(l.Classes[i])
	}
	switch c.Metric {
	case scenarios.SuccessRate:
		base.Got = share(counts.succeeded, counts.unique)
	case scenarios.RefusedRate:
		base.Got = share(counts.refused, counts.attempts)
	case scenarios.ShedRate:
		base.Got = share(counts.shed, counts.attempts)
	case scenarios.AdmittedRate:
		base.Got = float64(counts.admitted) / duration.Seconds()
	default:
		panic("run.Checks: unknown metric " + string(c.Metric))
	}
	return []CheckResult{base}
}

// counts are the figures the rate metrics divide, of a lane or one class.
type counts struct{ unique, attempts, admitted, refused, shed, succeeded int64 }

func laneCounts(l *sim.LaneResult) counts {
	return counts{l.Unique, l.Attempts, l.Admitted, l.Refused, l.Shed, l.Succeeded}
}

func classCounts(c sim.ClassResult) counts {
	return counts{c.Unique, c.Attempts, c.Admitted, c.Refused, c.Shed, c.Succeeded}
}

// share is n/of, 0 when of is 0.
func share(n, of int64) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}
