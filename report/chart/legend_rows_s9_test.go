package chart

import (
	"testing"

	"gonum.org/v1/plot/vg"
)

// Legend rows stand 1.25 line heights apart (a quarter of a line of leading,
// so the marks of two rows never touch): the first row's middle is half a
// line under the top, and bottom is half a line under the last row's middle.
func TestLegendRowsAQuarterLineApart(t *testing.T) {
	sty := TextStyle(11)
	h := sty.Height("Mg")
	entries := []LegendEntry{{Label: "one"}, {Label: "two", Line: true}, {Label: "three"}}
	w := markWidth(entries[0], h) + sty.Width("three") // narrower than any two entries side by side
	top := vg.Points(500)
	at, bottom := layoutLegend(entries, sty, 0, w+vg.Points(1), top)
	near := func(a, b vg.Length) bool { return a-b < 1e-9 && b-a < 1e-9 }
	if !near(at[0].Y, top-h/2) {
		t.Errorf("first row at %.3f, want %.3f (half a line under the top)", at[0].Y, top-h/2)
	}
	for i := 1; i < len(at); i++ {
		if got := at[i-1].Y - at[i].Y; got != 0 && !near(got, h*1.25) {
			t.Errorf("entry %d's row is %.3fpt under entry %d's, want 1.25 lines (%.3fpt)", i, got, i-1, h*1.25)
		}
	}
	if rows := (at[0].Y-at[len(at)-1].Y)/(h*1.25) + 1; rows < 2 {
		t.Fatalf("%.0f rows: the width fits one entry or two, not three", rows)
	}
	if want := at[len(at)-1].Y - h/2; !near(bottom, want) {
		t.Errorf("bottom %.3f, want %.3f", bottom, want)
	}
}
