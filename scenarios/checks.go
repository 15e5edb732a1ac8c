package scenarios

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Check is one pass/fail threshold of a scenario's checks section: Metric of
// Lane (every lane run when empty) and Class (the lane's totals when empty),
// compared by Op with Want. rlsim run exits 1 when any check fails.
type Check struct {
	Lane   string // the lane's name (sim.Config.LaneName); "": every lane run
	Class  string // "": the lane's totals (p99_time_to_success: each class)
	Metric Metric
	Op     string  // >=, <=, > or <
	Want   float64 // in the metric's unit (see Metric)
	Text   string  // Want as written, e.g. 99%
	Line   int     // where the check is written, 0 for none
}

// Metric is what a check measures.
type Metric string

// The metrics a check can measure, each with its unit.
const (
	SuccessRate      Metric = "success_rate"        // succeeded / unique requests, a fraction
	RefusedRate      Metric = "refused_rate"        // refused (429) / attempts, a fraction
	ShedRate         Metric = "shed_rate"           // shed (503) / attempts, a fraction
	AdmittedRate     Metric = "admitted_rate"       // admitted attempts per second of the duration
	P99TimeToSuccess Metric = "p99_time_to_success" // nanoseconds, from first attempt to success
	PeakRatio        Metric = "peak_ratio"          // most admitted in any window / limit
)

// metricNames are the metrics in the order docs list them.
var metricNames = []string{string(SuccessRate), string(RefusedRate), string(ShedRate),
	string(AdmittedRate), string(P99TimeToSuccess), string(PeakRatio)}

func checkOps() []string { return []string{">=", "<=", ">", "<"} }

// Passes reports whether got meets the check.
func (c Check) Passes(got float64) bool {
	switch c.Op {
	case ">=":
		return got >= c.Want
	case "<=":
		return got <= c.Want
	case ">":
		return got > c.Want
	case "<":
		return got < c.Want
	}
	panic("scenarios.Check.Passes: unknown op " + c.Op)
}

// Fraction reports whether the metric is a share of requests or attempts.
func (m Metric) Fraction() bool { return m == SuccessRate || m == RefusedRate || m == ShedRate }

// threshold is a check's value as written: a number (0.99, 1.2) or a string
// with its unit (99%, 2/s, 250ms), read in its metric's unit by parseThreshold.
type threshold string

// checkSpec is one check as a file writes it.
type checkSpec struct {
	Lane   string    `yaml:"lane,omitempty" doc:"the lane checked, by its name (default every lane the scenario runs, each on its own)"`
	Class  string    `yaml:"class,omitempty" doc:"the client class checked, by its name in clients (default the lane's totals; for p99_time_to_success each class on its own)"`
	Metric string    `yaml:"metric" required:"true" enum:"check_metric" doc:"what is measured: success_rate (succeeded / unique requests), refused_rate and shed_rate (429s and 503s / attempts), admitted_rate (admitted attempts per second of the duration), p99_time_to_success (first attempt to success), peak_ratio (most admitted in any window / limit; a lane's, no class)"`
	Op     string    `yaml:"op" required:"true" enum:"check_op" doc:"how the measured value must compare with value: >=, <=, > or <"`
	Value  threshold `yaml:"value" required:"true" doc:"the threshold: a rate as 99% or 0.99, an admitted rate as 2/s, a time as 250ms, a ratio as 1.2"`
}

func (b *builder) checks(specs []checkSpec, c *sim.Config) []Check {
	lanes := c.LaneNames()
	var classes []string
	for _, g := range c.Clients {
		classes = append(classes, g.Name)
	}
	var list []Check
	for i, cs := range specs {
		path := fmt.Sprintf("checks[%d]", i)
		ch := Check{Lane: cs.Lane, Class: cs.Class, Metric: Metric(cs.Metric), Op: cs.Op, Text: string(cs.Value), Line: b.line(path)}
		if cs.Lane != "" && !slices.Contains(lanes, cs.Lane) {
			msg := unknownName(cs.Lane, lanes)
			if _, known := sim.ParseLane(cs.Lane); known {
				msg = fmt.Sprintf("%s is not a lane this scenario runs (%s)", cs.Lane, strings.Join(lanes, ", "))
			}
			b.addf(path+".lane", "%s", msg)
		}
		if cs.Class != "" && !slices.Contains(classes, cs.Class) {
			msg := fmt.Sprintf("unknown class %q (the clients' names: %s)", cs.Class, strings.Join(classes, ", "))
			if m := closest(cs.Class, classes); m != "" {
				msg += fmt.Sprintf("; did you mean %q?", m)
			}
			b.addf(path+".class", "%s", msg)
		}
		if ch.Metric == PeakRatio && cs.Class != "" {
			b.addf(path+".class", "peak_ratio is a lane's, not a class's: leave class out")
		}
		if cs.Metric != "" && cs.Value != "" {
			want, err := parseThreshold(ch.Metric, string(cs.Value))
			if err != nil {
				b.addf(path+".value", "%v", err)
			}
			ch.Want = want
		}
		list = append(list, ch)
	}
	return list
}

// parseThreshold reads a check's value in its metric's unit.
func parseThreshold(m Metric, s string) (float64, error) {
	s = strings.TrimSpace(s)
	switch {
	case m.Fraction():
		f, pct := strings.CutSuffix(s, "%")
		v, ok := finite(f)
		if pct {
			v /= 100
		}
		if !ok || v < 0 || v > 1 {
			return 0, fmt.Errorf("%q is not a rate: want a share from 0%% to 100%%, like 99%% or 0.99", s)
		}
		return v, nil
	case m == P99TimeToSuccess:
		d, err := parseDuration(s)
		if err != nil || d < 0 {
			return 0, fmt.Errorf("%q is not a time: want a duration like 250ms or 2s", s)
		}
		return float64(d), nil
	case m == AdmittedRate:
		f, _ := strings.CutSuffix(s, "/s")
		v, ok := finite(f)
		if !ok || v < 0 {
			return 0, fmt.Errorf("%q is not an admitted rate: want requests per second, like 2/s", s)
		}
		return v, nil
	}
	v, ok := finite(s)
	if !ok || v < 0 {
		return 0, fmt.Errorf("%q is not a ratio: want a number like 1.2", s)
	}
	return v, nil
}

// finite reads s as a number, refusing what is not one a threshold can
// compare with: NaN, infinities and numbers past float64's range.
func finite(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return v, err == nil && !math.IsNaN(v) && !math.IsInf(v, 0)
}

// FormatMeasure writes a value measured for c in the metric's unit (99.2%,
// 250ms, 2.50/s, 1.20), with the digits it takes not to read as c's threshold
// when it differs from it: 99.96% against a threshold of 100% is not "100.0%".
func FormatMeasure(c Check, got float64) string {
	digits := 1
	for got != c.Want && digits < 9 && formatMeasure(c.Metric, got, digits) == formatMeasure(c.Metric, c.Want, digits) {
		digits++
	}
	return formatMeasure(c.Metric, got, digits)
}

func formatMeasure(m Metric, v float64, digits int) string {
	switch {
	case m.Fraction():
		return strconv.FormatFloat(v*100, 'f', digits, 64) + "%"
	case m == P99TimeToSuccess:
		return formatDuration(time.Duration(v))
	case m == AdmittedRate:
		return strconv.FormatFloat(v, 'f', digits+1, 64) + "/s"
	}
	return strconv.FormatFloat(v, 'f', digits+1, 64)
}

func checksToFile(checks []Check) []checkSpec {
	var specs []checkSpec
	for _, c := range checks {
		cs := checkSpec{Lane: c.Lane, Class: c.Class, Metric: string(c.Metric), Op: c.Op, Value: threshold(c.Text)}
		specs = append(specs, cs)
	}
	return specs
}
