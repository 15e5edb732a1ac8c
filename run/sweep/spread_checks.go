package sweep

import (
	"slices"
	"time"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

// SpreadCheck is one check measured on the mean over a sweep's seeds at one
// point, for one lane (and class).
type SpreadCheck struct {
	scenarios.Check
	Lane   string
	Title  string
	Class  string // "": the lane's totals
	Spread Spread // in the figure's unit (seconds for p99_time_to_success)
	Pass   bool   // the mean meets the check; nothing measured fails
}

// checkFigure is the figure a check's metric reads, and the factor from the
// figure's unit to the check's.
func checkFigure(m scenarios.Metric) (int, float64) {
	if m == scenarios.P99TimeToSuccess {
		return run.FigureIndex("p99_time_to_success_s"), float64(time.Second)
	}
	return run.FigureIndex(string(m)), 1
}

// SpreadChecks measures checks on the means over the seeds of pt, as run.Checks
// does on one run: a check without a lane gives one result per lane, and
// p99_time_to_success without a class one per class.
func SpreadChecks(checks []scenarios.Check, pt PointResult) []SpreadCheck {
	if len(pt.Runs) == 0 {
		return nil
	}
	var out []SpreadCheck
	for _, c := range checks {
		fi, unit := checkFigure(c.Metric)
		for li, l := range pt.Runs[0].Lanes {
			if c.Lane != "" && c.Lane != l.Lane {
				continue
			}
			classes := []string{c.Class}
			if c.Metric == scenarios.P99TimeToSuccess && c.Class == "" {
				classes = nil
				for _, cl := range l.Classes {
					classes = append(classes, cl.Name)
				}
			}
			for _, class := range classes {
				w := Where{Check: scenarios.Check{Class: class}, Figure: fi}
				sp, _ := w.Measured(pt, li)
				sc := SpreadCheck{Check: c, Lane: l.Lane, Title: l.Title, Class: class, Spread: sp}
				sc.Pass = sp.N > 0 && c.Passes(sp.Mean*unit)
				out = append(out, sc)
			}
		}
	}
	return out
}

// SpreadFailed counts the checks that did not pass.
func SpreadFailed(checks []SpreadCheck) int {
	return len(slices.DeleteFunc(slices.Clone(checks), func(c SpreadCheck) bool { return c.Pass }))
}
