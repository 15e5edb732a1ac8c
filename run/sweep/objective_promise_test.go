package sweep

import (
	"math"
	"testing"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

// order's doc: a value lies by its number or duration, else by its place in
// the list. Recommend's min and max follow it, not the strings' order.
func TestRecommendOrdersValuesByNumberDurationOrPlace(t *testing.T) {
	lanes := []string{"token_bucket"}
	for _, tc := range []struct {
		name   string
		values []string
		dir    string
		want   int
	}{
		{"numbers, not strings: 10 above 9", []string{"9", "10"}, "max", 1},
		{"numbers, not strings: 9 below 10", []string{"10", "9"}, "min", 1},
		{"durations: 500ms below 2s", []string{"2s", "500ms"}, "min", 1},
		{"durations: 2s above 500ms", []string{"500ms", "2s"}, "max", 1},
		{"words by their place: the first is least", []string{"zeta", "alpha"}, "min", 0},
		{"words by their place: the last is most", []string{"zeta", "alpha"}, "max", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vary := Vary{Path: "p", Values: tc.values}
			r := &Result{Header: Header{Varies: []Vary{vary}, Seeds: 1}}
			for _, v := range tc.values {
				r.Points = append(r.Points, fakePoint(v, lanes, [][]float64{{1}}, [][]float64{{1}}))
			}
			f, err := ParseFind(tc.dir+" p", []Vary{vary})
			if err != nil {
				t.Fatal(err)
			}
			recs := Objective{Find: f}.Recommend(r)
			if len(recs) != 1 || recs[0].Point != tc.want {
				t.Fatalf("Recommend(%s over %q) = %+v, want point %d", tc.dir, tc.values, recs, tc.want)
			}
			if recs[0].Value != tc.values[tc.want] || recs[0].Lane != "token_bucket" {
				t.Errorf("recommendation %+v, want value %q on lane token_bucket", recs[0], tc.values[tc.want])
			}
		})
	}
}

// Recommend gives nothing for a result with no points; Point is -1 where no
// point meets every where.
func TestRecommendEmptyAndNone(t *testing.T) {
	vary := Vary{Path: "p", Values: []string{"1"}}
	f, err := ParseFind("min p", []Vary{vary})
	if err != nil {
		t.Fatal(err)
	}
	if recs := (Objective{Find: f}).Recommend(&Result{Header: Header{Varies: []Vary{vary}}}); recs != nil {
		t.Errorf("Recommend of no points = %+v, want nil", recs)
	}
	w, err := ParseWhere("class users success >= 100%", []string{"a"}, []string{"users", "abuser"})
	if err != nil {
		t.Fatal(err)
	}
	r := &Result{Header: Header{Varies: []Vary{vary}, Seeds: 1}, Points: []PointResult{
		fakePoint("1", []string{"a"}, [][]float64{{0.5}}, [][]float64{{0}}),
	}}
	recs := Objective{Find: f, Where: []Where{w}}.Recommend(r)
	if len(recs) != 1 || recs[0].Point != -1 {
		t.Errorf("Recommend where none meets = %+v, want one with Point -1", recs)
	}
}

// Meets checks each where on the mean over seeds, at its boundary: >= and <=
// hold at exactly the value, > and < do not.
func TestMeetsAtTheBoundary(t *testing.T) {
	lanes, classes := []string{"a"}, []string{"users", "abuser"}
	// mean success 0.5 (0.25 and 0.75), mean admitted 2/s.
	pt := fakePoint("1", lanes, [][]float64{{0.25, 0.75}}, [][]float64{{1, 3}})
	for _, tc := range []struct {
		where string
		want  bool
	}{
		{"class users success >= 50%", true},
		{"class users success > 50%", false},
		{"class users success <= 50%", true},
		{"class users success < 50%", false},
		{"class users success >= 0.5", true},
		{"class users success > 0.49", true},
		{"class users success < 0.51", true},
		{"class abuser admitted_rate <= 2/s", true},
		{"class abuser admitted_rate < 2/s", false},
		{"class abuser admitted_rate >= 2/s", true},
		{"class abuser admitted_rate > 2/s", false},
	} {
		w, err := ParseWhere(tc.where, lanes, classes)
		if err != nil {
			t.Fatalf("ParseWhere(%q): %v", tc.where, err)
		}
		if got := (Objective{Where: []Where{w}}).Meets(pt, 0); got != tc.want {
			t.Errorf("Meets(%q) on mean 0.5 success, 2/s admitted = %v, want %v", tc.where, got, tc.want)
		}
	}
}

// Meets is false where the lane or class is not there, or no seed measured
// the figure; a where on another lane does not apply.
func TestMeetsWithoutAFigure(t *testing.T) {
	lanes := []string{"a", "b"}
	pt := fakePoint("1", lanes, [][]float64{{1}, {0}}, [][]float64{{0}, {0}})
	parse := func(s string) Where {
		w, err := ParseWhere(s, lanes, []string{"users", "abuser", "ghost"})
		if err != nil {
			t.Fatalf("ParseWhere(%q): %v", s, err)
		}
		return w
	}
	for _, tc := range []struct {
		name  string
		where string
		lane  int
		want  bool
	}{
		{"a class the lane lacks", "class ghost success >= 0%", 0, false},
		{"no seed measured it (NaN)", "class users shed_rate <= 100%", 0, false},
		{"a lane beyond the point's", "class users success >= 0%", 2, false},
		{"a where on lane a does not apply to b", "lane a class users success >= 100%", 1, true},
		{"a where on lane b applies to b", "lane b class users success >= 100%", 1, false},
		{"a where on lane a applies to a", "lane a class users success >= 100%", 0, true},
	} {
		if got := (Objective{Where: []Where{parse(tc.where)}}).Meets(pt, tc.lane); got != tc.want {
			t.Errorf("%s: Meets(%q, lane %d) = %v, want %v", tc.name, tc.where, tc.lane, got, tc.want)
		}
	}
	if (Objective{}).Meets(PointResult{}, 0) {
		t.Error("Meets of a point without runs = true, want false")
	}
}

// Measured is the spread of the figure over seeds, on the lane's totals when
// the where names no class.
func TestMeasuredTotalsAndClass(t *testing.T) {
	lanes := []string{"a"}
	pt := fakePoint("1", lanes, [][]float64{{0.2, 0.4}}, [][]float64{{0, 0}})
	succ := run.FigureIndex("success_rate")
	pt.Runs[0].Lanes[0].Totals[succ] = 0.6
	pt.Runs[1].Lanes[0].Totals[succ] = 0.8
	for _, tc := range []struct {
		where string
		mean  float64
	}{{"class users success >= 0%", 0.3}, {"success >= 0%", 0.7}} {
		w, err := ParseWhere(tc.where, lanes, []string{"users", "abuser"})
		if err != nil {
			t.Fatal(err)
		}
		s, ok := w.Measured(pt, 0)
		if !ok || s.N != 2 || math.Abs(s.Mean-tc.mean) > 1e-12 {
			t.Errorf("Measured(%q) = %+v, %v; want 2 seeds, mean %v", tc.where, s, ok, tc.mean)
		}
	}
}

// ParseWhere's short names stand for the metrics; the optional lane and class
// land in the check.
func TestParseWhereAliasesAndParts(t *testing.T) {
	lanes, classes := []string{"token_bucket", "gcra"}, []string{"users"}
	for _, tc := range []struct {
		where  string
		metric scenarios.Metric
		lane   string
		class  string
		op     string
		want   float64
	}{
		{"class users success >= 99%", scenarios.SuccessRate, "", "users", ">=", 0.99},
		{"refused <= 10%", scenarios.RefusedRate, "", "", "<=", 0.1},
		{"shed < 1%", scenarios.ShedRate, "", "", "<", 0.01},
		{"lane gcra peak <= 1.5", scenarios.PeakRatio, "gcra", "", "<=", 1.5},
		{"lane gcra class users p99 < 2s", scenarios.P99TimeToSuccess, "gcra", "users", "<", 2},
		{"  success_rate>0.5  ", scenarios.SuccessRate, "", "", ">", 0.5},
	} {
		w, err := ParseWhere(tc.where, lanes, classes)
		if err != nil {
			t.Errorf("ParseWhere(%q): %v", tc.where, err)
			continue
		}
		c := w.Check
		if c.Metric != tc.metric || w.Lane != tc.lane || c.Lane != tc.lane || c.Class != tc.class || c.Op != tc.op || math.Abs(c.Want-tc.want) > 1e-12 {
			t.Errorf("ParseWhere(%q) = %+v, want metric %s lane %q class %q op %s want %v", tc.where, c, tc.metric, tc.lane, tc.class, tc.op, tc.want)
		}
		if w.Flag != "--where "+tc.where {
			t.Errorf("ParseWhere(%q).Flag = %q", tc.where, w.Flag)
		}
	}
}

// ParseFind reads min or max, with the path trimmed.
func TestParseFindDirection(t *testing.T) {
	varies := []Vary{{Path: "a"}, {Path: "b"}}
	for _, tc := range []struct {
		s    string
		max  bool
		path string
		idx  int
	}{{"min a", false, "a", 0}, {"max b", true, "b", 1}, {" max   b ", true, "b", 1}} {
		f, err := ParseFind(tc.s, varies)
		if err != nil || f.Max != tc.max || f.Path != tc.path || f.vary != tc.idx || f.Text != tc.s {
			t.Errorf("ParseFind(%q) = %+v, %v; want max %v path %q vary %d", tc.s, f, err, tc.max, tc.path, tc.idx)
		}
	}
	if _, err := ParseFind("MIN a", varies); err == nil {
		t.Error("ParseFind(MIN a) = nil error, want only lower-case min or max")
	}
}

// Differs: the intervals must not overlap; touching ends overlap.
func TestDiffersAtTouchingEnds(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b Spread
		want bool
	}{
		{"touching ends", Spread{N: 2, Mean: 5, Half: 1}, Spread{N: 2, Mean: 8, Half: 2}, false},
		{"just apart", Spread{N: 2, Mean: 5, Half: 1}, Spread{N: 2, Mean: 8.5, Half: 2}, true},
		{"one seed equal", Spread{N: 1, Mean: 5}, Spread{N: 1, Mean: 5}, false},
		{"NaN on the other side", Spread{N: 1, Mean: 5}, Spread{Mean: math.NaN()}, false},
	} {
		if got := tc.a.Differs(tc.b); got != tc.want || tc.b.Differs(tc.a) != tc.want {
			t.Errorf("%s: %+v.Differs(%+v) = %v, want %v both ways", tc.name, tc.a, tc.b, got, tc.want)
		}
	}
	s := Spread{N: 3, Mean: 10, Half: 2.5}
	if s.Lo() != 7.5 || s.Hi() != 12.5 {
		t.Errorf("Lo, Hi of 10 ± 2.5 = %v, %v; want 7.5, 12.5", s.Lo(), s.Hi())
	}
}

// T975 panics below one degree of freedom, naming the method; at 30 it is
// the table's, past it the expansion, close to the table's last.
func TestT975Edges(t *testing.T) {
	if got := T975(30); got != 2.042272 {
		t.Errorf("T975(30) = %v, want the table's 2.042272", got)
	}
	if got := T975(1); got != 12.706205 {
		t.Errorf("T975(1) = %v, want 12.706205", got)
	}
	defer func() {
		r := recover()
		if s, _ := r.(string); s == "" || s[:len("sweep.T975")] != "sweep.T975" {
			t.Errorf("T975(0) recovered %v, want a panic naming sweep.T975", r)
		}
	}()
	T975(0)
}
