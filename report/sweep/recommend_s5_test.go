package sweep

import (
	"image/color"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/rlsim/rlsim/run/sweep"
)

// A recommendation of the first point (index 0) names it and its value in
// the JSON; only "none" (point -1) is written as a null point.
func TestJSONRecommendationOfPointZero(t *testing.T) {
	s := spreadSweep([]float64{0.99, 0.98}, []float64{0.8, 0.82})
	s.Objective = &sweep.Objective{}
	s.Recommend = []sweep.Recommendation{{Lane: "token_bucket", Point: 0, Value: "10"}, {Lane: "fixed_window", Point: -1}}
	recs := s.json().Objective.Recommended
	if len(recs) != 2 {
		t.Fatalf("%d recommendations, want 2", len(recs))
	}
	if recs[0].Point == nil || *recs[0].Point != 0 || recs[0].Value != "10" {
		t.Errorf("point 0 written as point %v value %q, want 0 and \"10\"", recs[0].Point, recs[0].Value)
	}
	if recs[1].Point != nil || recs[1].Value != "" {
		t.Errorf("none written as point %v value %q, want null and no value", recs[1].Point, recs[1].Value)
	}
}

// Cells carry their texts up to 8 columns by 12 rows, none beyond.
func TestHeatmapCellTextsUpTo8Columns(t *testing.T) {
	for _, tc := range []struct {
		nx, ny int
		text   bool
	}{{8, 2, true}, {8, 12, true}, {9, 2, false}, {2, 13, false}, {1, 1, true}} {
		cl := cells{nx: tc.nx, ny: tc.ny, recommended: -1,
			colour: func(float64) color.Color { return color.Black },
			text:   func(float64) string { return "cell" }}
		for i := 0; i < tc.nx*tc.ny; i++ {
			cl.values, cl.meets = append(cl.values, float64(i)), append(cl.meets, false)
		}
		p := plot.New()
		p.X.Min, p.X.Max = -0.5, float64(tc.nx)-0.5
		p.Y.Min, p.Y.Max = -0.5, float64(tc.ny)-0.5
		rec := &recorder.Canvas{}
		cl.Plot(draw.NewCanvas(rec, 4*vg.Inch, 4*vg.Inch), p)
		texts := 0
		for _, a := range rec.Actions {
			if s, ok := a.(*recorder.FillString); ok && s.String == "cell" {
				texts++
			}
		}
		want := 0
		if tc.text {
			want = tc.nx * tc.ny
		}
		if texts != want {
			t.Errorf("%d×%d cells: %d texts, want %d", tc.nx, tc.ny, texts, want)
		}
	}
}
