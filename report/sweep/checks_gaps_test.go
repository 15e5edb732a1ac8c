package sweep

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run/sweep"
	"github.com/rlsim/rlsim/scenarios"
)

// A check measured on one seed has no interval to state: no "±"; on two seeds
// or more the mean is followed by "± " and the half-width in the same unit.
func TestMeasureAgainstStatesAnIntervalOnlyOverSeeds(t *testing.T) {
	rate := scenarios.Check{Metric: scenarios.SuccessRate, Op: ">=", Want: 0.5, Text: "50%"}
	p99 := scenarios.Check{Metric: scenarios.P99TimeToSuccess, Op: "<=", Want: 2e9, Text: "2s"}
	for _, tc := range []struct {
		c     scenarios.Check
		sp    sweep.Spread
		seeds int
		want  string
	}{
		{rate, sweep.Spread{N: 1, Mean: 0.9}, 1, "90%"},
		{rate, sweep.Spread{N: 3, Mean: 0.9, Half: 0.05}, 3, "90% ± 5%"},
		{p99, sweep.Spread{N: 1, Mean: 1.5}, 1, "1.5s"},
		{p99, sweep.Spread{N: 2, Mean: 1.5, Half: 0.25}, 2, "1.5s ± 250ms"},
	} {
		got := measureAgainst(tc.c, tc.sp, tc.seeds)
		if strings.Contains(got, "±") != (tc.seeds > 1) || strings.ReplaceAll(got, ".0", "") != tc.want {
			t.Errorf("measureAgainst(%s, %+v, %d) = %q, want %q (up to trailing .0)", tc.c.Metric, tc.sp, tc.seeds, got, tc.want)
		}
	}
	if got := measureAgainst(rate, sweep.Spread{}, 3); got != "none (nothing measured)" {
		t.Errorf("nothing measured: %q", got)
	}
}

// The sweep JSON gives a p99 check's want in seconds, like its mean and ci95
// (the spread of the figure, in seconds); other metrics keep their unit.
func TestSweepJSONCheckUnits(t *testing.T) {
	s := Report{Checks: []sweep.SpreadCheck{
		{Check: scenarios.Check{Metric: scenarios.P99TimeToSuccess, Op: "<=", Want: 2e9, Text: "2s"}, Lane: "token_bucket",
			Spread: sweep.Spread{N: 3, Mean: 1.5, Half: 0.25}, Pass: true},
		{Check: scenarios.Check{Metric: scenarios.SuccessRate, Op: ">=", Want: 0.99, Text: "99%"}, Lane: "token_bucket",
			Spread: sweep.Spread{N: 3, Mean: 0.9, Half: 0.01}},
	}}
	got := s.jsonChecks()
	if len(got) != 2 {
		t.Fatalf("jsonChecks gave %d, want 2", len(got))
	}
	if got[0].Want != 2 || float64(got[0].Mean) != 1.5 || float64(got[0].CI95) != 0.25 || got[0].N != 3 || !got[0].Pass {
		t.Errorf("p99 check in the JSON: %+v, want want 2, mean 1.5, ci95 0.25 (seconds), n 3, pass", got[0])
	}
	if got[1].Want != 0.99 || float64(got[1].Mean) != 0.9 || got[1].Pass {
		t.Errorf("success_rate check in the JSON: %+v, want want 0.99, mean 0.9, fail", got[1])
	}
}
