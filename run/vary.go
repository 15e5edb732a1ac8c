package run

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// MaxPoints caps a sweep's grid, checked before any point is loaded.
const MaxPoints = 10_000

// Vary is one --vary flag: the scenario field at Path takes each of Values in
// turn. Values are YAML text, as a --set writes them.
type Vary struct {
	Path   string
	Values []string
}

// Flag is the vary as a command line writes it, values listed.
func (v Vary) Flag() string { return "--vary " + v.Path + "=" + strings.Join(v.Values, ",") }

// ParseVary reads a --vary flag: path=v1,v2,v3 (a list) or path=from..to/step
// (a range of numbers or durations, both ends included, as 10..50/10 or
// 100ms..1s/100ms). A range is refused before its values are listed when it
// has more than MaxPoints of them.
func ParseVary(arg string) (Vary, error) {
	path, spec, ok := strings.Cut(arg, "=")
	if !ok || path == "" || spec == "" {
		return Vary{}, fmt.Errorf("--vary %s: want path=v1,v2,... or path=from..to/step, e.g. limits[0].limit=10..50/10", arg)
	}
	if from, rest, isRange := strings.Cut(spec, ".."); isRange {
		to, step, hasStep := strings.Cut(rest, "/")
		if !hasStep {
			return Vary{}, fmt.Errorf("--vary %s: a range needs a step: from..to/step, e.g. 10..50/10", arg)
		}
		values, err := rangeValues(from, to, step)
		if err != nil {
			return Vary{}, fmt.Errorf("--vary %s: %v", arg, err)
		}
		return Vary{Path: path, Values: values}, nil
	}
	values := strings.Split(spec, ",")
	seen := map[string]bool{}
	for _, v := range values {
		if strings.TrimSpace(v) == "" {
			return Vary{}, fmt.Errorf("--vary %s: an empty value in the list", arg)
		}
		if seen[v] {
			return Vary{}, fmt.Errorf("--vary %s: %s is listed twice", arg, v)
		}
		seen[v] = true
	}
	return Vary{Path: path, Values: values}, nil
}

// rangeValues lists from, from+step, ... up to to: whole numbers, decimals or
// durations, all three ends alike.
func rangeValues(from, to, step string) ([]string, error) {
	if d0, err0 := time.ParseDuration(from); err0 == nil && !isNumber(from) {
		d1, err1 := time.ParseDuration(to)
		ds, err2 := time.ParseDuration(step)
		if err1 != nil || err2 != nil || isNumber(to) || isNumber(step) {
			return nil, fmt.Errorf("a range of durations wants durations at both ends and as the step, like 100ms..1s/100ms")
		}
		return durationRange(d0, d1, ds)
	}
	f0, err0 := strconv.ParseFloat(from, 64)
	f1, err1 := strconv.ParseFloat(to, 64)
	fs, err2 := strconv.ParseFloat(step, 64)
	if err0 != nil || err1 != nil || err2 != nil || math.IsInf(f0, 0) || math.IsInf(f1, 0) || math.IsInf(fs, 0) {
		return nil, fmt.Errorf("%s..%s/%s is not a range: want numbers (10..50/10) or durations (100ms..1s/100ms)", from, to, step)
	}
	if fs <= 0 || f1 < f0 {
		return nil, fmt.Errorf("want from <= to and a positive step")
	}
	n := math.Floor((f1-f0)/fs+1e-9) + 1
	if n > MaxPoints {
		return nil, fmt.Errorf("%.0f values, more than a sweep's %d points", n, MaxPoints)
	}
	decimals := max(decimalsOf(from), decimalsOf(step))
	var values []string
	for i := 0; i < int(n); i++ {
		values = append(values, strconv.FormatFloat(f0+float64(i)*fs, 'f', decimals, 64))
	}
	return values, nil
}

func durationRange(from, to, step time.Duration) ([]string, error) {
	if step <= 0 || to < from {
		return nil, fmt.Errorf("want from <= to and a positive step")
	}
	if (to-from)/step >= MaxPoints {
		return nil, fmt.Errorf("%d values, more than a sweep's %d points", (to-from)/step+1, MaxPoints)
	}
	var values []string
	for d := from; d <= to; d += step {
		values = append(values, d.String())
	}
	return values, nil
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// decimalsOf is how many digits s writes after its decimal point.
func decimalsOf(s string) int {
	if _, frac, ok := strings.Cut(s, "."); ok {
		return len(frac)
	}
	return 0
}

// Grid lists every point of the varies: each point one value of each vary, in
// the order of the flags, the last vary changing fastest. It refuses, before
// listing any, a grid of more than MaxPoints points.
func Grid(varies []Vary) ([][]string, error) {
	n := 1
	for _, v := range varies {
		n *= len(v.Values)
		if n > MaxPoints {
			return nil, fmt.Errorf("--vary: the grid has more than %d points; vary fewer values", MaxPoints)
		}
	}
	points := make([][]string, 0, n)
	for i := range n {
		point := make([]string, len(varies))
		rest := i
		for j := len(varies) - 1; j >= 0; j-- {
			k := len(varies[j].Values)
			point[j] = varies[j].Values[rest%k]
			rest /= k
		}
		points = append(points, point)
	}
	return points, nil
}
