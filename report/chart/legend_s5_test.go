package chart

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// An entry too wide for the row goes on the first row when it is the first:
// a new row would leave the first one empty.
func TestLegendWideFirstEntryStaysOnTheFirstRow(t *testing.T) {
	sty := TextStyle(11)
	long := LegendEntry{Label: strings.Repeat("a very long legend label ", 8)}
	short := LegendEntry{Label: "b"}
	left, maxX, top := vg.Points(10), vg.Points(100), vg.Points(500)
	at, _ := layoutLegend([]LegendEntry{long, short}, sty, left, maxX, top)
	first := top - sty.Height("Mg")/2
	if at[0].X != left || at[0].Y != first {
		t.Errorf("first entry at %v, want (%v, %v): the first row", at[0], left, first)
	}
	if at[1].X != left || at[1].Y >= first {
		t.Errorf("second entry at %v, want a second row at x %v", at[1], left)
	}
}
