package sweep

import (
	"fmt"
	"math"
	"strings"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
	"github.com/rlsim/rlsim/scenarios"
)

// spreadCheckLines list a scenario's checks as measured on the means over the
// seeds (rlsim run --seeds): pass or FAIL, the lane and class, the check as
// written and the mean ± its interval.
func (s Report) spreadCheckLines() []string {
	if len(s.Checks) == 0 {
		return nil
	}
	lines := []string{fmt.Sprintf("checks, on %s: %d of %d passed",
		strings.Replace(meanOver(s.Result.Seeds), "the mean", "the means", 1), len(s.Checks)-sweep.SpreadFailed(s.Checks), len(s.Checks))}
	for _, c := range s.Checks {
		verdict := "FAIL"
		if c.Pass {
			verdict = "pass"
		}
		lines = append(lines, fmt.Sprintf("  %s  %s  %s  %s %s %s  measured %s", verdict, c.Title, report.ClassOrAll(c.Class),
			c.Metric, c.Op, scenarios.Escape(c.Text), s.spreadMeasure(c)))
	}
	return lines
}

// spreadMeasure is a check's mean ± interval in the check's unit, with the
// digits it takes not to read as the threshold.
func (s Report) spreadMeasure(c sweep.SpreadCheck) string {
	return measureAgainst(c.Check, c.Spread, s.Result.Seeds)
}

// measureAgainst writes sp, a figure a check (or --where) c reads, in c's unit
// and with the digits it takes not to read as c's threshold: a mean of 99.87%
// against 99.9% is not "99.9%".
func measureAgainst(c scenarios.Check, sp sweep.Spread, seeds int) string {
	if sp.N == 0 || math.IsNaN(sp.Mean) {
		return "none (nothing measured)"
	}
	unit := 1.0
	if c.Metric == scenarios.P99TimeToSuccess {
		unit = 1e9 // the figure is in seconds, the check in nanoseconds
	}
	text := scenarios.FormatMeasure(c, sp.Mean*unit)
	if seeds > 1 {
		text += " ± " + scenarios.FormatMeasure(scenarios.Check{Metric: c.Metric, Want: math.NaN()}, sp.Half*unit)
	}
	return text
}

// jsonSpreadCheck is one check's result on the means over the seeds.
type jsonSpreadCheck struct {
	Lane   string  `json:"lane"`
	Class  string  `json:"class,omitempty"`
	Metric string  `json:"metric"`
	Op     string  `json:"op"`
	Want   float64 `json:"want"` // in the metric's unit: a fraction, seconds, per second, a ratio
	Mean   run.Num `json:"mean"` // the same unit; null when nothing was measured
	CI95   run.Num `json:"ci95"`
	N      int     `json:"n"`
	Pass   bool    `json:"pass"`
}

func (s Report) jsonChecks() []jsonSpreadCheck {
	var out []jsonSpreadCheck
	for _, c := range s.Checks {
		want := c.Want
		if c.Metric == scenarios.P99TimeToSuccess {
			want /= 1e9
		}
		out = append(out, jsonSpreadCheck{Lane: c.Lane, Class: c.Class, Metric: string(c.Metric), Op: c.Op, Want: want,
			Mean: run.Num(c.Spread.Mean), CI95: run.Num(c.Spread.Half), N: c.Spread.N, Pass: c.Pass})
	}
	return out
}
