package chart

import (
	"testing"

	"gonum.org/v1/plot/vg"
)

// Entries of one legend row stand 14 points apart: from the end of one
// entry's label to the next entry's mark, whatever the marks and labels. The
// gap is wider than the 4 points between a mark and its own label, so each
// label reads with its own mark and not its neighbour's.
func TestLegendEntriesOneGapApart(t *testing.T) {
	sty := TextStyle(11)
	entries := []LegendEntry{{Label: "admitted"}, {Label: "p99 latency", Line: true}, {Label: "x"}, {Label: "refused by the limit", Line: true, Dashed: true}}
	left := vg.Points(10)
	at, _ := layoutLegend(entries, sty, left, vg.Points(2000), vg.Points(500))
	h := sty.Height("Mg")
	const gap = vg.Length(14) // points
	const ownGap = vg.Length(4)
	for i := 1; i < len(entries); i++ {
		if at[i].Y != at[0].Y {
			t.Fatalf("entry %d at %v, not on the first row %v: the row is wide enough for all", i, at[i], at[0].Y)
		}
		end := at[i-1].X + markWidth(entries[i-1], h) + sty.Width(entries[i-1].Label)
		got := at[i].X - end
		if d := got - gap; d < -1e-9 || d > 1e-9 {
			t.Errorf("gap from %q to %q = %.3fpt, want %vpt", entries[i-1].Label, entries[i].Label, got, gap)
		}
		if got <= ownGap {
			t.Errorf("gap from %q to %q = %.3fpt, not wider than a mark's %vpt to its own label", entries[i-1].Label, entries[i].Label, got, ownGap)
		}
	}
}
