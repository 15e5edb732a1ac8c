package sweep

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/rlsim/rlsim/run/sweep"
	"github.com/rlsim/rlsim/scenarios"
)

// TestSpreadCheckJSONHoldsEveryField: each check of the sweep's JSON is the
// check it reports, field by field: lane, class (left out for the lane's
// totals), metric, operator, the threshold in the metric's unit (seconds for
// p99_time_to_success, whose check holds nanoseconds), the mean and interval
// (null when nothing was measured), the seeds measured and the verdict.
func TestSpreadCheckJSONHoldsEveryField(t *testing.T) {
	metrics := []scenarios.Metric{scenarios.SuccessRate, scenarios.P99TimeToSuccess, scenarios.AdmittedRate}
	var checks []sweep.SpreadCheck
	for i := range 12 {
		c := sweep.SpreadCheck{Check: scenarios.Check{Metric: metrics[i%3], Op: []string{"<", "<=", ">", ">="}[i%4], Want: float64(i+1) * 1.5e9},
			Lane: fmt.Sprintf("lane-%d", i), Title: fmt.Sprintf("Lane %d", i), Spread: sweep.Spread{N: i % 5, Mean: float64(i) / 7, Half: float64(i) / 70}, Pass: i%2 == 0}
		if i%3 != 0 {
			c.Class = fmt.Sprintf("class-%d", i)
		}
		if i == 5 {
			c.Spread.Mean, c.Spread.Half = math.NaN(), math.NaN()
		}
		checks = append(checks, c)
	}
	got := Report{Result: &sweep.Result{Header: sweep.Header{Seeds: 4}}, Checks: checks}.jsonChecks()
	if len(got) != len(checks) {
		t.Fatalf("%d checks in the JSON, want %d", len(got), len(checks))
	}
	for i, c := range checks {
		g := got[i]
		want := c.Want
		if c.Metric == scenarios.P99TimeToSuccess {
			want = c.Want / 1e9
		}
		if g.Lane != c.Lane || g.Class != c.Class || g.Metric != string(c.Metric) || g.Op != c.Op || g.Want != want ||
			g.N != c.Spread.N || g.Pass != c.Pass {
			t.Errorf("check %d: %+v; want lane %s, class %q, %s %s %v, n %d, pass %v", i, g, c.Lane, c.Class, c.Metric, c.Op, want, c.Spread.N, c.Pass)
		}
		b, err := json.Marshal(g)
		if err != nil {
			t.Fatal(err)
		}
		var back map[string]any
		json.Unmarshal(b, &back)
		_, hasClass := back["class"]
		if hasClass != (c.Class != "") {
			t.Errorf("check %d: class in the JSON %v, want %v: %s", i, hasClass, c.Class != "", b)
		}
		if math.IsNaN(c.Spread.Mean) {
			if back["mean"] != nil || back["ci95"] != nil {
				t.Errorf("check %d: nothing measured, JSON %s; want mean and ci95 null", i, b)
			}
		} else if back["mean"] != c.Spread.Mean || back["ci95"] != c.Spread.Half {
			t.Errorf("check %d: JSON %s; want mean %v, ci95 %v", i, b, c.Spread.Mean, c.Spread.Half)
		}
	}
}
