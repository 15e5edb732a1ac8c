package scenarios

import (
	"math"
	"strings"
	"testing"
	"time"
)

// ParseThreshold: a rate's cap of 100% (or 1) holds at exactly its value;
// every fraction metric reads percentages; spaces around are trimmed.
func TestParseThresholdEnds(t *testing.T) {
	for _, tc := range []struct {
		metric Metric
		in     string
		want   float64
	}{
		{SuccessRate, "100%", 1},
		{RefusedRate, "100%", 1},
		{ShedRate, "100%", 1},
		{RefusedRate, "25%", 0.25},
		{ShedRate, "0.5", 0.5},
		{SuccessRate, " 50% ", 0.5},
		{AdmittedRate, " 3/s ", 3},
		{P99TimeToSuccess, "250ms", float64(250 * time.Millisecond)},
		{P99TimeToSuccess, "2s", float64(2 * time.Second)},
		{PeakRatio, "1", 1},
	} {
		got, err := ParseThreshold(tc.metric, tc.in)
		if err != nil || math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("ParseThreshold(%s, %q) = %v, %v; want %v", tc.metric, tc.in, got, err, tc.want)
		}
	}
}

// Each refusal quotes the value and says what the metric wants.
func TestParseThresholdMessages(t *testing.T) {
	for _, tc := range []struct {
		metric Metric
		in     string
		want   string
	}{
		{SuccessRate, "101%", `"101%" is not a rate: want a share from 0% to 100%, like 99% or 0.99`},
		{RefusedRate, "2", `"2" is not a rate: want a share from 0% to 100%, like 99% or 0.99`},
		{ShedRate, "-1%", `"-1%" is not a rate`},
		{P99TimeToSuccess, "soon", `"soon" is not a time: want a duration like 250ms or 2s`},
		{AdmittedRate, "fast", `"fast" is not an admitted rate: want requests per second, like 2/s`},
		{PeakRatio, "-1", `"-1" is not a ratio: want a number like 1.2`},
		{PeakRatio, "NaN", `"NaN" is not a ratio`},
		{AdmittedRate, "Inf/s", `"Inf/s" is not an admitted rate`},
	} {
		_, err := ParseThreshold(tc.metric, tc.in)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("ParseThreshold(%s, %q) = %v, want %q", tc.metric, tc.in, err, tc.want)
		}
	}
}

// Fraction is true of the three shares only.
func TestFractionMetrics(t *testing.T) {
	for _, tc := range []struct {
		m    Metric
		want bool
	}{{SuccessRate, true}, {RefusedRate, true}, {ShedRate, true}, {AdmittedRate, false}, {PeakRatio, false}, {P99TimeToSuccess, false}} {
		if got := tc.m.Fraction(); got != tc.want {
			t.Errorf("%s.Fraction() = %v, want %v", tc.m, got, tc.want)
		}
	}
}

// FormatMeasure adds digits until the value no longer reads as the threshold,
// and no more than 9 of them; an equal value keeps the usual digits.
func TestFormatMeasureDigits(t *testing.T) {
	for _, tc := range []struct {
		metric    Metric
		got, want float64
		shown     string
	}{
		{PeakRatio, 1.5000001, 1.5, "1.5000001"},
		{PeakRatio, 1.5, 1.5, "1.50"},
		{RefusedRate, 0.0004, 0, "0.04%"},
		{ShedRate, 0.25, 0.5, "25.0%"},
		{SuccessRate, 0.99 + 1e-15, 0.99, "99.000000000%"},
		{AdmittedRate, 2, 2, "2.00/s"},
	} {
		if got := FormatMeasure(Check{Metric: tc.metric, Want: tc.want}, tc.got); got != tc.shown {
			t.Errorf("FormatMeasure(%s, %v against %v) = %q, want %q", tc.metric, tc.got, tc.want, got, tc.shown)
		}
	}
}

// Passes: >= and <= hold at the threshold, > and < do not.
func TestPassesAtTheThreshold(t *testing.T) {
	for _, tc := range []struct {
		op               string
		below, at, above bool
	}{
		{">=", false, true, true}, {">", false, false, true},
		{"<=", true, true, false}, {"<", true, false, false},
	} {
		c := Check{Op: tc.op, Want: 2}
		if c.Passes(1.5) != tc.below || c.Passes(2) != tc.at || c.Passes(2.5) != tc.above {
			t.Errorf("%s 2: passes 1.5 %v, 2 %v, 2.5 %v; want %v %v %v", tc.op,
				c.Passes(1.5), c.Passes(2), c.Passes(2.5), tc.below, tc.at, tc.above)
		}
	}
}
