package sweep

import (
	"math"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// fakePoint is a point whose lanes' "users" class has the given success rates
// over the seeds, and whose "abuser" class has the given admitted rates.
func fakePoint(value string, lanes []string, success, admitted [][]float64) PointResult {
	pt := PointResult{Values: []string{value}}
	succ, adm := run.FigureIndex("success_rate"), run.FigureIndex("admitted_rate")
	for k := range success[0] {
		var sr SeedRun
		for li, name := range lanes {
			users := run.ClassFigures{Name: "users", Values: nanFigures()}
			abuser := run.ClassFigures{Name: "abuser", Values: nanFigures()}
			users.Values[succ] = run.Num(success[li][k])
			abuser.Values[adm] = run.Num(admitted[li][k])
			sr.Lanes = append(sr.Lanes, run.LaneFigures{Lane: name, Title: name, Totals: nanFigures(), Classes: []run.ClassFigures{users, abuser}})
		}
		pt.Runs = append(pt.Runs, sr)
	}
	return pt
}

func nanFigures() []run.Num {
	v := make([]run.Num, len(run.Figures))
	for i := range v {
		v[i] = run.Num(math.NaN())
	}
	return v
}

func TestRecommend(t *testing.T) {
	lanes := []string{"token_bucket", "fixed_window"}
	vary := Vary{Path: "limits[0].limit", Values: []string{"10", "20", "40"}}
	r := &Result{Header: Header{Varies: []Vary{vary}, Seeds: 2}, Points: []PointResult{
		// token bucket meets both at 20 and 40; fixed window nowhere (its abuser gets too much).
		fakePoint("10", lanes, [][]float64{{0.95, 0.96}, {0.99, 0.99}}, [][]float64{{1, 1}, {3, 3}}),
		fakePoint("20", lanes, [][]float64{{0.99, 0.995}, {0.999, 1}}, [][]float64{{1.5, 1.5}, {4, 4}}),
		fakePoint("40", lanes, [][]float64{{1, 1}, {1, 1}}, [][]float64{{2, 2}, {6, 6}}),
	}}
	classes := []string{"users", "abuser"}
	where := func(s string) Where {
		w, err := ParseWhere(s, lanes, classes)
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	find := func(s string) Find {
		f, err := ParseFind(s, []Vary{vary})
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	tests := []struct {
		name  string
		obj   Objective
		wants []string // per lane: the value, or "" for none
	}{
		{"min under both", Objective{Find: find("min limits[0].limit"),
			Where: []Where{where("class users success >= 99%"), where("class abuser admitted_rate <= 2/s")}}, []string{"20", ""}},
		{"max under both", Objective{Find: find("max limits[0].limit"),
			Where: []Where{where("class users success >= 99%"), where("class abuser admitted_rate <= 2/s")}}, []string{"40", ""}},
		{"a where on one lane only", Objective{Find: find("min limits[0].limit"),
			Where: []Where{where("lane fixed_window class abuser admitted_rate <= 3/s")}}, []string{"10", "10"}},
		{"the mean decides: 0.99 and 0.995 average over 99%", Objective{Find: find("min limits[0].limit"),
			Where: []Where{where("class users success_rate > 0.992")}}, []string{"20", "20"}},
		{"nothing meets", Objective{Find: find("min limits[0].limit"), Where: []Where{where("class users success > 100%")}}, []string{"", ""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recs := tc.obj.Recommend(r)
			for i, rec := range recs {
				got := rec.Value
				if rec.Point < 0 {
					got = ""
				}
				if got != tc.wants[i] {
					t.Errorf("%s: recommended %q, want %q", rec.Lane, got, tc.wants[i])
				}
			}
		})
	}
}

func TestParseWhereAndFindErrorsNameTheFlag(t *testing.T) {
	lanes, classes := []string{"token_bucket"}, []string{"users", "abuser"}
	for _, tc := range []struct{ where, want string }{
		{"users success >= 99%", "--where users success >= 99%: want '[lane LANE] [class CLASS] METRIC OP VALUE'"},
		{"class user success >= 99%", `--where class user success >= 99%: unknown class "user" (the clients' names: users, abuser)`},
		{"lane gcra success >= 99%", "--where lane gcra success >= 99%: gcra is not a lane the sweep runs (token_bucket)"},
		{"class users sucess >= 99%", `unknown metric "sucess"`},
		{"class users success >= 120%", `"120%" is not a rate`},
		{"class users peak_ratio <= 1", "peak_ratio is a lane's, not a class's"},
		{"p99 <= 1s", "p99_time_to_success is a class's"},
		{"class users admitted_rate <= fast", `"fast" is not an admitted rate`},
	} {
		if _, err := ParseWhere(tc.where, lanes, classes); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseWhere(%q) error = %v, want %q", tc.where, err, tc.want)
		}
	}
	w, err := ParseWhere("class users p99 <= 250ms", lanes, classes)
	if err != nil || w.Want != 0.25 || run.Figures[w.Figure].Name != "p99_time_to_success_s" {
		t.Errorf("a p99 in ms: %+v, %v; want 0.25 s of p99_time_to_success_s", w, err)
	}
	varies := []Vary{{Path: "limits[0].limit"}}
	for _, tc := range []struct{ find, want string }{
		{"lowest limits[0].limit", "--find lowest limits[0].limit: want 'min PATH' or 'max PATH'"},
		{"min", "want 'min PATH'"},
		{"min limits[0].burst", "--find min limits[0].burst: limits[0].burst is not varied (the --vary paths: limits[0].limit)"},
	} {
		if _, err := ParseFind(tc.find, varies); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFind(%q) error = %v, want %q", tc.find, err, tc.want)
		}
	}
}
