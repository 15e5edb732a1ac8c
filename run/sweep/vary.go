package sweep

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode"
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
// 100ms..1s/100ms). A list or range of more than MaxPoints values is refused
// before its values are listed, and so is a range that is not one: NaN or an
// infinity at an end or as the step, durations past int64, more than
// maxDecimals decimals, and values that read the same as written (the
// decimals are those of from and step: 1e-3..3e-3/1e-3 is 0.001, 0.002, 0.003).
func ParseVary(arg string) (Vary, error) {
	if strings.ContainsFunc(arg, unicode.IsControl) {
		// No path or value holds one; quoted, the error stays on one line.
		return Vary{}, fmt.Errorf("--vary %s: a control character in the value", strconv.Quote(shorten(arg)))
	}
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
			return Vary{}, fmt.Errorf("--vary %s: %w", arg, err)
		}
		return Vary{Path: path, Values: values}, nil
	}
	if n := strings.Count(spec, ",") + 1; n > MaxPoints {
		return Vary{}, fmt.Errorf("--vary %s: %d values, more than a sweep's %d points", shorten(arg), n, MaxPoints)
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

// shorten is a flag too long to repeat whole in an error, cut short.
func shorten(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// maxDecimals is the most digits after the point a range's values are written with.
const maxDecimals = 30

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
	if err := errors.Join(err0, err1, err2); err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, fmt.Errorf("%s..%s/%s is not a range: want numbers (10..50/10) or durations (100ms..1s/100ms)", from, to, step)
	}
	if err0 != nil || err1 != nil || err2 != nil || !finite(f0) || !finite(f1) || !finite(fs) {
		return nil, fmt.Errorf("%s..%s/%s is not a range: want finite numbers at both ends and as the step (not NaN, an infinity or past float64), like 10..50/10", from, to, step)
	}
	if fs <= 0 || f1 < f0 {
		return nil, fmt.Errorf("want from <= to and a positive step")
	}
	n := math.Floor((f1-f0)/fs+1e-9) + 1
	if !(n <= MaxPoints) { // NaN and the infinities too
		return nil, fmt.Errorf("%.0f values, more than a sweep's %d points", n, MaxPoints)
	}
	decimals := max(decimalsOf(from), decimalsOf(step))
	if decimals > maxDecimals {
		return nil, fmt.Errorf("a range's numbers may have at most %d decimals, got %d", maxDecimals, decimals)
	}
	values := make([]string, 0, int(n))
	seen := map[string]bool{}
	for i := range int(n) {
		v := strconv.FormatFloat(f0+float64(i)*fs, 'f', decimals, 64)
		if seen[v] {
			return nil, fmt.Errorf("the range lists %s twice: write its ends and step with the digits that tell its values apart", v)
		}
		seen[v] = true
		values = append(values, v)
	}
	return values, nil
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// durationRange lists from, from+step, ... up to to. The span to-from is
// counted in uint64 and each value as from plus a multiple of step that is at
// most the span, so that no end near int64's limits wraps round.
func durationRange(from, to, step time.Duration) ([]string, error) {
	if step <= 0 || to < from {
		return nil, fmt.Errorf("want from <= to and a positive step")
	}
	span := uint64(to) - uint64(from) // to >= from: the difference fits in uint64
	n := span / uint64(step)
	if n >= MaxPoints {
		count := strconv.FormatUint(n+1, 10)
		if n == math.MaxUint64 {
			count = "18446744073709551616" // n+1 past uint64
		}
		return nil, fmt.Errorf("%s values, more than a sweep's %d points", count, MaxPoints)
	}
	values := make([]string, 0, n+1)
	for i := range n + 1 {
		values = append(values, time.Duration(uint64(from)+i*uint64(step)).String())
	}
	return values, nil
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// decimalsOf is how many digits after the decimal point s needs: those it
// writes, less its exponent (1e-3 needs three, 2.5e1 none).
func decimalsOf(s string) int {
	mantissa, exp, hasExp := strings.Cut(strings.ToLower(s), "e")
	decimals := 0
	if _, frac, ok := strings.Cut(mantissa, "."); ok {
		decimals = len(frac)
	}
	if hasExp {
		e, err := strconv.Atoi(exp)
		if err != nil {
			e = math.MinInt32 // an exponent past int: far too many decimals
		}
		decimals -= max(e, math.MinInt32)
	}
	return max(decimals, 0)
}

// PointCount is how many points the grid of varies has, refusing a vary
// without values and a grid of more than MaxPoints points.
func PointCount(varies []Vary) (int, error) {
	n := 1
	for _, v := range varies {
		if len(v.Values) == 0 {
			return 0, fmt.Errorf("--vary %s: no values", v.Path)
		}
		n *= len(v.Values) // at most MaxPoints × len(v.Values): no overflow
		if n > MaxPoints {
			return 0, fmt.Errorf("--vary: the grid has more than %d points; vary fewer values", MaxPoints)
		}
	}
	return n, nil
}

// Grid lists every point of the varies: each point one value of each vary, in
// the order of the flags, the last vary changing fastest. It refuses, before
// listing any, a grid of more than MaxPoints points.
func Grid(varies []Vary) ([][]string, error) {
	n, err := PointCount(varies)
	if err != nil {
		return nil, err
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
