package sweep

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run/sweep"
)

// objectiveSweep is spreadSweep's one point as a sweep of limits[0].limit=10,
// with the objective of find and wheres.
func objectiveSweep(t *testing.T, a, b []float64, find string, wheres ...string) Report {
	t.Helper()
	s := spreadSweep(a, b)
	vary := sweep.Vary{Path: "limits[0].limit", Values: []string{"10"}}
	s.Result.Varies = []sweep.Vary{vary}
	s.Result.Points[0].Values = []string{"10"}
	f, err := sweep.ParseFind(find, s.Result.Varies)
	if err != nil {
		t.Fatal(err)
	}
	o := &sweep.Objective{Find: f}
	for _, w := range wheres {
		wh, err := sweep.ParseWhere(w, []string{"token_bucket", "fixed_window"}, []string{"users"})
		if err != nil {
			t.Fatal(err)
		}
		o.Where = append(o.Where, wh)
	}
	return New(s.Result, o)
}

// recommendationLines: the objective as written, its wheres joined by "and",
// then each lane's pick with each applying where's figure, or that no point
// meets every --where, or "no --where" when none applies.
func TestRecommendationLines(t *testing.T) {
	for _, tc := range []struct {
		name   string
		wheres []string
		want   []string // whole lines, or a prefix ending in "…"
	}{
		{"no where", nil, []string{
			"recommended: min limits[0].limit (on the means over seeds)",
			"  token bucket: limits[0].limit=10 (no --where)",
			"  fixed window: limits[0].limit=10 (no --where)",
		}},
		{"one where, one lane meets", []string{"class users success >= 90%"}, []string{
			"recommended: min limits[0].limit where class users success >= 90% (on the means over seeds)",
			"  token bucket: limits[0].limit=10 (users success_rate …",
			"  fixed window: no point meets every --where",
		}},
		{"two wheres joined by and; a lane's where applies to it only", []string{"lane fixed_window class users success <= 60%", "success >= 0%"}, []string{
			"recommended: min limits[0].limit where lane fixed_window class users success <= 60% and success >= 0% (on the means over seeds)",
			"  token bucket: limits[0].limit=10 (all success_rate …",
			"  fixed window: limits[0].limit=10 (users success_rate …all success_rate …",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := objectiveSweep(t, []float64{0.95, 0.95}, []float64{0.5, 0.5}, "min limits[0].limit", tc.wheres...).recommendationLines()
			if len(got) != len(tc.want) {
				t.Fatalf("recommendationLines =\n%s\nwant %d lines", strings.Join(got, "\n"), len(tc.want))
			}
			for i, w := range tc.want {
				if p, ok := strings.CutSuffix(w, "…"); ok {
					// "…" stands for a figure; figures are joined by "; ".
					heads := strings.Split(p, "…")
					figs := strings.Split(strings.TrimSuffix(strings.TrimPrefix(got[i], heads[0]), ")"), "; ")
					if !strings.HasPrefix(got[i], heads[0]) || !strings.HasSuffix(got[i], ")") || len(figs) != len(heads) {
						t.Errorf("line %d = %q, want %q with %d figures", i, got[i], w, len(heads))
						continue
					}
					for k := 1; k < len(heads); k++ {
						if !strings.HasPrefix(figs[k], heads[k]) {
							t.Errorf("line %d = %q: figure %d, want %q first", i, got[i], k, heads[k])
						}
					}
				} else if got[i] != w {
					t.Errorf("line %d = %q, want %q", i, got[i], w)
				}
			}
		})
	}
	if got := spreadSweep([]float64{1}, []float64{1}).recommendationLines(); got != nil {
		t.Errorf("recommendationLines without an objective = %q, want none", got)
	}
}

// measuredAt joins the figures of several applying wheres with "; ".
func TestMeasuredAtJoinsEveryWhere(t *testing.T) {
	s := objectiveSweep(t, []float64{0.95, 0.95}, []float64{0.5, 0.5}, "max limits[0].limit", "success >= 0%", "class users success >= 0%")
	got := s.measuredAt(s.Recommend[0])
	parts := strings.Split(got, "; ")
	if len(parts) != 2 || !strings.HasPrefix(parts[0], "all success_rate ") || !strings.HasPrefix(parts[1], "users success_rate ") {
		t.Errorf("measuredAt = %q, want the all figure then the users figure, joined by \"; \"", got)
	}
}

// describe says the scenario and its seeds: seed N for one, "n seeds (a to
// b)" for several, with the point count when something varies.
func TestDescribe(t *testing.T) {
	const tail = "; each figure is the mean ± the half-width of its 95% interval (Student's t)"
	one := spreadSweep([]float64{1}, []float64{1})
	one.Result.Seed = 7
	if got, want := one.describe(), "s over seed 7; each figure is one run's (one seed: no interval)"; got != want {
		t.Errorf("describe of one seed = %q, want %q", got, want)
	}
	three := spreadSweep([]float64{1, 1, 1}, []float64{1, 1, 1})
	three.Result.Seed = 5
	if got, want := three.describe(), "s over 3 seeds (5 to 7)"+tail; got != want {
		t.Errorf("describe of three seeds = %q, want %q", got, want)
	}
	varied := objectiveSweep(t, []float64{1, 1}, []float64{1, 1}, "min limits[0].limit")
	if got, want := varied.describe(), "s: 1 points × 2 seeds (1 to 2)"+tail; got != want {
		t.Errorf("describe of a varied sweep = %q, want %q", got, want)
	}
}

// pointLabel writes a point's values as --set does, path=value, space-joined
// in the varies' order.
func TestPointLabel(t *testing.T) {
	s := spreadSweep([]float64{1}, []float64{1})
	s.Result.Varies = []sweep.Vary{{Path: "a.b", Values: []string{"1"}}, {Path: "c", Values: []string{"2s"}}}
	s.Result.Points[0].Values = []string{"1", "2s"}
	if got, want := s.pointLabel(0), "a.b=1 c=2s"; got != want {
		t.Errorf("pointLabel = %q, want %q", got, want)
	}
}

// rows: point by point, lane by lane, the totals (ci -1) then each class.
func TestRowsOrder(t *testing.T) {
	s := spreadSweep([]float64{1}, []float64{1})
	var got []string
	for _, r := range s.rows() {
		c := r.class
		if r.ci < 0 {
			c = "all"
		}
		got = append(got, r.lane.Lane+"/"+c)
	}
	if want := "token_bucket/all token_bucket/users fixed_window/all fixed_window/users"; strings.Join(got, " ") != want {
		t.Errorf("rows = %q, want %q", strings.Join(got, " "), want)
	}
}
