package chart

import (
	"testing"

	"gonum.org/v1/plot/vg"
)

// A legend wider than its figure wraps into rows: every entry that fits alone
// ends within the width, in order, and a row only starts when the next would
// not fit.
func TestLegendWraps(t *testing.T) {
	sty := TextStyle(11)
	var entries []LegendEntry
	for _, l := range []string{"fixed window", "sliding log", "sliding window counter", "token bucket", "leaky bucket",
		"GCRA (same as token bucket, drawn under it)", "AIMD concurrency", "client throttling (same as token bucket, drawn under it)"} {
		entries = append(entries, LegendEntry{Label: l, Line: true})
	}
	const maxX = vg.Length(600)
	at, bottom := layoutLegend(entries, sty, 10, maxX, 500)
	h := sty.Height("Mg")
	rows := 1
	for i, e := range entries {
		end := at[i].X + markWidth(e, h) + sty.Width(e.Label)
		if end > maxX {
			t.Errorf("%q ends at %.0f, past %v", e.Label, end, maxX)
		}
		if i == 0 {
			continue
		}
		switch {
		case at[i].Y < at[i-1].Y:
			rows++
			prev := at[i-1].X + markWidth(entries[i-1], h) + sty.Width(entries[i-1].Label)
			if prev+vg.Points(14)+end-at[i].X <= maxX {
				t.Errorf("%q starts a row though it fits after %q", e.Label, entries[i-1].Label)
			}
		case at[i].Y != at[i-1].Y || at[i].X <= at[i-1].X:
			t.Errorf("%q is not right of %q in its row", e.Label, entries[i-1].Label)
		}
	}
	if rows < 2 || bottom >= at[len(at)-1].Y {
		t.Errorf("%d rows, bottom %.0f: the entries are wider than %v, so they wrap", rows, bottom, maxX)
	}
}
