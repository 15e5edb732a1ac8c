package sweep

import (
	"testing"

	"github.com/rlsim/rlsim/run"
)

// Measured reports false, not a panic, for a lane past the runs' lanes (the
// lane count itself and beyond) and for a class the runs lack.
func TestMeasuredLanePastTheRuns(t *testing.T) {
	pt := fakePoint("1", []string{"a"}, [][]float64{{0.2, 0.4}}, [][]float64{{0, 0}})
	succ := run.FigureIndex("success_rate")
	pt.Runs[0].Lanes[0].Totals[succ], pt.Runs[1].Lanes[0].Totals[succ] = 0.6, 0.8
	w, err := ParseWhere("success >= 0%", []string{"a"}, []string{"users", "abuser"})
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := w.Measured(pt, 0); !ok || s.N != 2 {
		t.Errorf("lane 0: %+v, %v; want 2 seeds", s, ok)
	}
	for _, lane := range []int{1, 2} {
		if s, ok := w.Measured(pt, lane); ok {
			t.Errorf("lane %d of 1: %+v, true; want false", lane, s)
		}
	}
	w.Class = "nobody"
	if s, ok := w.Measured(pt, 0); ok {
		t.Errorf("class nobody: %+v, true; want false", s)
	}
}
