package report

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"github.com/rlsim/rlsim/report/chart"
)

// TestPeakLabelsStayInsideTheFigure draws the peak figure with counts of
// seven digits, as 100 M requests give, and wants every bar's label (count
// and ratio) whole inside the figure: the first and last were cut off.
func TestPeakLabelsStayInsideTheFigure(t *testing.T) {
	r := *sample().Result
	for i := range r.Lanes {
		r.Lanes[i].Peak.Count = 1_002_350 + int64(i)
	}
	f := PeakFigure(r)
	rec := &recorder.Canvas{}
	f.Draw(draw.NewCanvas(rec, f.Width, f.Height))
	labels := 0
	sty := chart.TextStyle(10)
	for _, a := range rec.Actions {
		s, ok := a.(*recorder.FillString)
		if !ok || !strings.Contains(s.String, "×)") {
			continue
		}
		labels++
		if w := sty.Width(s.String); s.Point.X < 0 || s.Point.X+w > f.Width {
			t.Errorf("label %q spans x %.1f to %.1f, outside the figure's width %.1f", s.String, s.Point.X, s.Point.X+w, f.Width)
		}
	}
	if labels != len(r.Lanes) {
		t.Fatalf("found %d bar labels, want one per lane (%d)", labels, len(r.Lanes))
	}
}
