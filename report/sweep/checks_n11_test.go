package sweep

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/run/sweep"
	"github.com/rlsim/rlsim/scenarios"
)

// TestSpreadCheckLinesEachVerdict: a heading of how many of the checks passed
// on the means over the seeds, then a line per check: its verdict, lane title,
// class (all for none), the check as written and the measure with its interval.
func TestSpreadCheckLinesEachVerdict(t *testing.T) {
	if lines := (Report{Result: &sweep.Result{Header: sweep.Header{Seeds: 3}}}).spreadCheckLines(); lines != nil {
		t.Errorf("no checks: %q, want none", lines)
	}
	checks := []sweep.SpreadCheck{
		{Check: scenarios.Check{Metric: scenarios.SuccessRate, Op: ">=", Text: "90%", Want: 0.9}, Title: "GCRA",
			Spread: sweep.Spread{N: 3, Mean: 0.95, Half: 0.01}, Pass: true},
		{Check: scenarios.Check{Metric: scenarios.P99TimeToSuccess, Op: "<=", Text: "2s", Want: 2e9}, Title: "token bucket", Class: "users",
			Spread: sweep.Spread{N: 3, Mean: 2.5, Half: 0.25}, Pass: false},
		{Check: scenarios.Check{Metric: scenarios.AdmittedRate, Op: ">", Text: "5/s", Want: 5}, Title: "GCRA",
			Spread: sweep.Spread{N: 0, Mean: math.NaN()}, Pass: false},
	}
	r := Report{Result: &sweep.Result{Header: sweep.Header{Seeds: 3}}, Checks: checks}
	want := []string{
		"checks, on the means over 3 seeds: 1 of 3 passed",
		"  pass  GCRA  all  success_rate >= 90%  measured 95.0% ± 1.0%",
		"  FAIL  token bucket  users  p99_time_to_success <= 2s  measured 2.5s ± 250ms",
		"  FAIL  GCRA  all  admitted_rate > 5/s  measured none (nothing measured)",
	}
	if got := r.spreadCheckLines(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("spreadCheckLines:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestMeasureAgainstUnitsAndSeeds: a p99's mean is in seconds and written as
// a duration; one seed has no interval; digits are added until the measure
// does not read as the threshold.
func TestMeasureAgainstUnitsAndSeeds(t *testing.T) {
	p99 := scenarios.Check{Metric: scenarios.P99TimeToSuccess, Want: float64(2 * time.Second)}
	success := scenarios.Check{Metric: scenarios.SuccessRate, Want: 0.999}
	for _, c := range []struct {
		check scenarios.Check
		sp    sweep.Spread
		seeds int
		want  string
	}{
		{p99, sweep.Spread{N: 1, Mean: 1.5}, 1, "1.5s"},
		{p99, sweep.Spread{N: 4, Mean: 1.5, Half: 0.1}, 4, "1.5s ± 100ms"},
		{success, sweep.Spread{N: 1, Mean: 0.9}, 1, "90.0%"},
		{success, sweep.Spread{N: 1, Mean: 0.9987}, 1, "99.87%"},
		{success, sweep.Spread{N: 0}, 2, "none (nothing measured)"},
		{success, sweep.Spread{N: 2, Mean: math.NaN()}, 2, "none (nothing measured)"},
	} {
		if got := measureAgainst(c.check, c.sp, c.seeds); got != c.want {
			t.Errorf("measureAgainst(%s, %+v, %d seeds) = %q, want %q", c.check.Metric, c.sp, c.seeds, got, c.want)
		}
	}
}

// TestAxisValueOfEachKind: a number is itself, a duration its seconds, a
// word its place in the vary's list, anything else 0.
func TestAxisValueOfEachKind(t *testing.T) {
	v := sweep.Vary{Values: []string{"gcra", "token_bucket", "fixed_window"}}
	for _, c := range []struct {
		value string
		want  float64
	}{{"2.5", 2.5}, {"-3", -3}, {"1500ms", 1.5}, {"2m", 120}, {"gcra", 0}, {"fixed_window", 2}, {"token_bucket", 1}, {"other", 0}} {
		if got := axisValue(v, c.value); got != c.want {
			t.Errorf("axisValue(%q) = %v, want %v", c.value, got, c.want)
		}
	}
}
