package sweep

import (
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

// Objective is what a sweep looks for: at each lane, the point with the least
// (or most) value of one varied path among those that meet every Where.
type Objective struct {
	Find  Find
	Where []Where
}

// Find is --find 'min PATH' or 'max PATH', PATH one of the varied paths.
type Find struct {
	Max  bool
	Path string
	vary int
	Text string
}

// Where is one --where: a check of the mean over seeds of a metric, on one lane
// or every lane, on a class or the lane's totals.
type Where struct {
	scenarios.Check
	Figure int // index in run.Figures
	Flag   string
}

// ParseFind reads --find against the paths varies vary.
func ParseFind(s string, varies []Vary) (Find, error) {
	dir, path, _ := strings.Cut(strings.TrimSpace(s), " ")
	path = strings.TrimSpace(path)
	f := Find{Max: dir == "max", Path: path, Text: s}
	if dir != "min" && dir != "max" || path == "" {
		return f, fmt.Errorf("--find %s: want 'min PATH' or 'max PATH', PATH a varied path", s)
	}
	f.vary = slices.IndexFunc(varies, func(v Vary) bool { return v.Path == path })
	if f.vary < 0 {
		var paths []string
		for _, v := range varies {
			paths = append(paths, v.Path)
		}
		return f, fmt.Errorf("--find %s: %s is not varied (the --vary paths: %s)", s, path, strings.Join(paths, ", "))
	}
	return f, nil
}

var wherePattern = regexp.MustCompile(`^(?:lane\s+(\S+)\s+)?(?:class\s+(\S+)\s+)?([a-z0-9_]+)\s*(>=|<=|>|<)\s*(\S+)$`)

// metricAliases are short names a --where may use.
var metricAliases = map[string]scenarios.Metric{"success": scenarios.SuccessRate, "refused": scenarios.RefusedRate,
	"shed": scenarios.ShedRate, "peak": scenarios.PeakRatio, "p99": scenarios.P99TimeToSuccess}

// ParseWhere reads --where '[lane LANE] [class CLASS] METRIC OP VALUE', e.g.
// 'class users success >= 99%', against the sweep's lanes and classes.
func ParseWhere(s string, lanes, classes []string) (Where, error) {
	w := Where{Flag: "--where " + s}
	m := wherePattern.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return w, fmt.Errorf("%s: want '[lane LANE] [class CLASS] METRIC OP VALUE', e.g. 'class users success_rate >= 99%%'", w.Flag)
	}
	var errs []error
	if m[1] != "" {
		if !slices.Contains(lanes, m[1]) {
			errs = append(errs, fmt.Errorf("%s: %s is not a lane the sweep runs (%s)", w.Flag, m[1], strings.Join(lanes, ", ")))
		}
		w.Lane = m[1]
	}
	if m[2] != "" && !slices.Contains(classes, m[2]) {
		errs = append(errs, fmt.Errorf("%s: unknown class %q (the clients' names: %s)", w.Flag, m[2], strings.Join(classes, ", ")))
	}
	metric, ok := metricAliases[m[3]]
	if !ok {
		metric = scenarios.Metric(m[3])
	}
	if !slices.Contains(scenarios.MetricNames(), string(metric)) {
		return w, errors.Join(append(errs, fmt.Errorf("%s: unknown metric %q (want %s)", w.Flag, m[3], strings.Join(scenarios.MetricNames(), ", ")))...)
	}
	switch {
	case metric == scenarios.PeakRatio && m[2] != "":
		errs = append(errs, fmt.Errorf("%s: peak_ratio is a lane's, not a class's: leave class out", w.Flag))
	case metric == scenarios.P99TimeToSuccess && m[2] == "":
		errs = append(errs, fmt.Errorf("%s: p99_time_to_success is a class's: name one with class CLASS", w.Flag))
	}
	want, err := scenarios.ParseThreshold(metric, m[5])
	if err != nil {
		errs = append(errs, fmt.Errorf("%s: %v", w.Flag, err))
	}
	name := string(metric)
	if metric == scenarios.P99TimeToSuccess {
		name, want = "p99_time_to_success_s", want/float64(time.Second)
	}
	w.Check = scenarios.Check{Lane: w.Lane, Class: m[2], Metric: metric, Op: m[4], Want: want, Text: m[5]}
	w.Figure = run.FigureIndex(name)
	return w, errors.Join(errs...)
}

// Measured is the spread of w's figure at one point for one lane, with false
// when the lane or class is not there.
func (w Where) Measured(pt PointResult, lane int) (Spread, bool) {
	var values []run.Num
	for _, r := range pt.Runs {
		if lane >= len(r.Lanes) {
			return Spread{}, false
		}
		l := r.Lanes[lane]
		if w.Class == "" {
			values = append(values, l.Totals[w.Figure])
			continue
		}
		i := slices.IndexFunc(l.Classes, func(c run.ClassFigures) bool { return c.Name == w.Class })
		if i < 0 {
			return Spread{}, false
		}
		values = append(values, l.Classes[i].Values[w.Figure])
	}
	return SpreadOf(values), true
}

// Applies reports whether w checks the named lane (every lane when it names none).
func (w Where) Applies(lane string) bool { return w.Lane == "" || w.Lane == lane }

// Meets reports whether the point meets every where that applies to lane, on
// the means over seeds.
func (o Objective) Meets(pt PointResult, lane int) bool {
	if len(pt.Runs) == 0 || lane >= len(pt.Runs[0].Lanes) {
		return false
	}
	name := pt.Runs[0].Lanes[lane].Lane
	for _, w := range o.Where {
		if !w.Applies(name) {
			continue
		}
		s, ok := w.Measured(pt, lane)
		if !ok || s.N == 0 || !w.Passes(s.Mean) {
			return false
		}
	}
	return true
}

// Recommendation is the point an objective picks for one lane; Point is -1
// when no point meets every where.
type Recommendation struct {
	Lane, Title string
	Point       int // index into Result.Points
	Value       string
}

// Recommend picks, for each lane, the point that meets every where with the
// least (or most) value of the found path; ties go to the first in grid order.
func (o Objective) Recommend(r *Result) []Recommendation {
	if len(r.Points) == 0 || len(r.Points[0].Runs) == 0 {
		return nil
	}
	var out []Recommendation
	for li, l := range r.Points[0].Runs[0].Lanes {
		rec := Recommendation{Lane: l.Lane, Title: l.Title, Point: -1}
		for pi, pt := range r.Points {
			if !o.Meets(pt, li) {
				continue
			}
			v := pt.Values[o.Find.vary]
			if rec.Point < 0 || o.better(v, rec.Value, r.Varies[o.Find.vary]) {
				rec.Point, rec.Value = pi, v
			}
		}
		out = append(out, rec)
	}
	return out
}

// better reports whether a is a better value than b: less for min, more for max.
func (o Objective) better(a, b string, v Vary) bool {
	x, y := order(a, v), order(b, v)
	if o.Find.Max {
		return x > y
	}
	return x < y
}

// order is where a value lies: its number or duration, else its place in the list.
func order(s string, v Vary) float64 {
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(f) {
		return f
	}
	if d, err := time.ParseDuration(s); err == nil {
		return float64(d)
	}
	return float64(slices.Index(v.Values, s))
}
