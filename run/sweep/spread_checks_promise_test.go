package sweep

import (
	"math"
	"testing"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

// SpreadChecks, as run.Checks: a check without a lane gives one result per
// lane, one with a lane only that lane's; p99_time_to_success without a class
// one per class; nothing measured fails. SpreadFailed counts the failures.
func TestSpreadChecksFanOut(t *testing.T) {
	lanes := []string{"token_bucket", "gcra"}
	pt := fakePoint("1", lanes, [][]float64{{0.9, 0.9}, {0.5, 0.5}}, [][]float64{{1, 1}, {1, 1}})
	for _, tc := range []struct {
		name  string
		check scenarios.Check
		want  []string // lane/class:pass
	}{
		{"every lane", scenarios.Check{Metric: scenarios.SuccessRate, Class: "users", Op: ">=", Want: 0.9},
			[]string{"token_bucket/users:true", "gcra/users:false"}},
		{"one lane", scenarios.Check{Lane: "gcra", Metric: scenarios.SuccessRate, Class: "users", Op: "<=", Want: 0.5},
			[]string{"gcra/users:true"}},
		{"a p99 per class, none measured", scenarios.Check{Lane: "gcra", Metric: scenarios.P99TimeToSuccess, Op: "<=", Want: 1e12},
			[]string{"gcra/users:false", "gcra/abuser:false"}},
		{"a p99 of one class", scenarios.Check{Metric: scenarios.P99TimeToSuccess, Class: "abuser", Op: "<=", Want: 1e12},
			[]string{"token_bucket/abuser:false", "gcra/abuser:false"}},
		{"a lane no point runs", scenarios.Check{Lane: "fixed_window", Metric: scenarios.SuccessRate, Op: ">=", Want: 0}, nil},
	} {
		got := SpreadChecks([]scenarios.Check{tc.check}, pt)
		var s []string
		fails := 0
		for _, g := range got {
			s = append(s, g.Lane+"/"+g.Class+":"+map[bool]string{true: "true", false: "false"}[g.Pass])
			if !g.Pass {
				fails++
			}
		}
		if len(s) != len(tc.want) {
			t.Errorf("%s: SpreadChecks = %q, want %q", tc.name, s, tc.want)
			continue
		}
		for i := range s {
			if s[i] != tc.want[i] {
				t.Errorf("%s: SpreadChecks = %q, want %q", tc.name, s, tc.want)
				break
			}
		}
		if SpreadFailed(got) != fails {
			t.Errorf("%s: SpreadFailed = %d, want %d", tc.name, SpreadFailed(got), fails)
		}
	}
	if got := SpreadChecks([]scenarios.Check{{Metric: scenarios.SuccessRate, Op: ">=", Want: 0}}, PointResult{}); got != nil {
		t.Errorf("SpreadChecks of a point without runs = %+v, want nil", got)
	}
}

// A p99 check compares in nanoseconds a figure measured in seconds: 1.5s of
// figure against a threshold of 1.5s (1.5e9 ns) passes <= and fails <.
func TestSpreadChecksP99AtTheThreshold(t *testing.T) {
	pt := fakePoint("1", []string{"a"}, [][]float64{{1}}, [][]float64{{1}})
	p99 := run.FigureIndex("p99_time_to_success_s")
	pt.Runs[0].Lanes[0].Classes[0].Values[p99] = 1.5
	for _, tc := range []struct {
		op   string
		pass bool
	}{{"<=", true}, {"<", false}, {">=", true}, {">", false}} {
		got := SpreadChecks([]scenarios.Check{{Metric: scenarios.P99TimeToSuccess, Class: "users", Op: tc.op, Want: 1.5e9}}, pt)
		if len(got) != 1 || got[0].Pass != tc.pass || got[0].Spread.Mean != 1.5 || math.IsNaN(got[0].Spread.Mean) {
			t.Errorf("p99 %s 1.5s on 1.5s: %+v, want pass %v with the mean in seconds", tc.op, got, tc.pass)
		}
	}
}
