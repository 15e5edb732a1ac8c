package chart

import (
	"bytes"
	"fmt"
	"image/color"
	"image/png"
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/rlsim/rlsim/sim"
)

// recorder is a plotter that records the data area it was drawn in.
type recorder struct {
	drawn  int
	canvas vg.Rectangle
}

func (r *recorder) Plot(c draw.Canvas, _ *plot.Plot) { r.drawn++; r.canvas = c.Rectangle }

func canvas() draw.Canvas { return draw.New(vgimg.New(600, 400)) }

func recordedPanels(n int) ([]*plot.Plot, []*recorder) {
	var ps []*plot.Plot
	var rs []*recorder
	for i := range n {
		p := NewPlot(fmt.Sprintf("panel %d", i), "t", "n")
		r := &recorder{}
		p.Add(r)
		ps, rs = append(ps, p), append(rs, r)
	}
	return ps, rs
}

// Grid draws every panel once, in rows of cols filled left to right, top to
// bottom, the last row part-filled when the panels do not divide evenly; the
// panels of one column share their left and right edges.
func TestGridDrawsEveryPanelInRows(t *testing.T) {
	for _, tc := range []struct{ n, cols int }{{3, 2}, {4, 2}, {5, 3}, {1, 2}, {3, 1}} {
		ps, rs := recordedPanels(tc.n)
		Grid(ps, tc.cols)(canvas())
		for i, r := range rs {
			if r.drawn != 1 {
				t.Errorf("%d panels in %d columns: panel %d drawn %d times, want once", tc.n, tc.cols, i, r.drawn)
				continue
			}
			row, col := i/tc.cols, i%tc.cols
			if col > 0 {
				left := rs[i-1].canvas
				if r.canvas.Min.X <= left.Max.X || r.canvas.Min.Y != left.Min.Y {
					t.Errorf("%d panels in %d columns: panel %d at %v is not right of panel %d at %v in its row", tc.n, tc.cols, i, r.canvas, i-1, left)
				}
			}
			if row > 0 {
				above := rs[i-tc.cols].canvas
				if r.canvas.Max.Y >= above.Min.Y || r.canvas.Min.X != above.Min.X || r.canvas.Max.X != above.Max.X {
					t.Errorf("%d panels in %d columns: panel %d at %v is not under panel %d at %v in its column", tc.n, tc.cols, i, r.canvas, i-tc.cols, above)
				}
			}
		}
	}
}

// Single draws its one plot over the whole canvas: its data area is wider
// than any panel of a two-column grid of the same canvas.
func TestSingleFillsTheCanvas(t *testing.T) {
	ps, rs := recordedPanels(1)
	Single(ps[0])(canvas())
	gs, grs := recordedPanels(2)
	Grid(gs, 2)(canvas())
	if rs[0].drawn != 1 {
		t.Fatalf("Single drew its plot %d times", rs[0].drawn)
	}
	if w, gw := rs[0].canvas.Size().X, grs[0].canvas.Size().X; w <= 1.5*gw || w > 600 {
		t.Errorf("Single's data area is %v wide, a grid panel's %v: want about twice, within 600", w, gw)
	}
}

// A figure draws its body under the title, and under the legend when it has
// one: the room left to the body is less with a legend, and less again with a
// legend that wraps into two rows.
func TestFigureBodyBelowTitleAndLegend(t *testing.T) {
	top := func(legend []LegendEntry) vg.Length {
		var body vg.Rectangle
		f := Figure{Title: "title", Width: 600, Height: 400, Legend: legend, Body: func(c draw.Canvas) { body = c.Rectangle }}
		c := canvas()
		f.Draw(c)
		if body.Max.Y >= c.Max.Y || body.Min.Y < c.Min.Y || body.Min.X < c.Min.X || body.Max.X > c.Max.X {
			t.Errorf("legend %d entries: body %v not inside the canvas %v under the title", len(legend), body, c.Rectangle)
		}
		return body.Max.Y
	}
	var long []LegendEntry
	for i := range 12 {
		long = append(long, LegendEntry{Label: fmt.Sprintf("a rather long legend label %d", i), Line: true})
	}
	none, one, wrapped := top(nil), top([]LegendEntry{{Label: "token bucket"}}), top(long)
	if one >= none || wrapped >= one {
		t.Errorf("body tops: no legend %v, one entry %v, a wrapping legend %v: want each lower", none, one, wrapped)
	}
}

// MarkColour reads sim's #RRGGBB for every mark, opaque.
func TestMarkColourReadsSimsTable(t *testing.T) {
	for _, m := range []sim.Mark{sim.MarkAdmitted, sim.MarkDelayed, sim.MarkRefused, sim.MarkShed, sim.MarkDropped} {
		c := MarkColour(m)
		if got := fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B); !strings.EqualFold(got, m.Info().Colour) || c.A != 0xff {
			t.Errorf("MarkColour(%s) = %v (%s), want %s opaque", m.Info().Name, c, got, m.Info().Colour)
		}
	}
	if MarkColour(sim.MarkRefused) != (color.NRGBA{0xD5, 0x5E, 0x00, 0xff}) {
		t.Errorf("refused is not Okabe–Ito vermillion: %v", MarkColour(sim.MarkRefused))
	}
}

// Tick labels carry no needless decimals: what strconv's shortest form gives
// the tick's value rounded to a millionth.
func TestPlainTicksLabels(t *testing.T) {
	for _, r := range [][2]float64{{0, 1}, {0, 0.3}, {0, 1e6}, {-2.5, 2.5}} {
		for _, tk := range (plainTicks{}).Ticks(r[0], r[1]) {
			if tk.Label == "" {
				continue
			}
			v, err := strconv.ParseFloat(tk.Label, 64)
			if err != nil || math.Abs(v-tk.Value) > 1e-6 || strings.Contains(tk.Label, "e") ||
				(strings.Contains(tk.Label, ".") && strings.HasSuffix(tk.Label, "0")) || len(tk.Label) > 9 {
				t.Errorf("ticks of [%v, %v]: %v labelled %q", r[0], r[1], tk.Value, tk.Label)
			}
		}
	}
}

// LineStyle is solid unless dashed; an HLine's data range is its y only.
func TestLineStyleAndHLineRange(t *testing.T) {
	solid, dashed := LineStyle(ColLimit, 1.5, false), LineStyle(ColLimit, 1.5, true)
	if solid.Dashes != nil || len(dashed.Dashes) == 0 || solid.Width != vg.Points(1.5) || dashed.Color != ColLimit {
		t.Errorf("LineStyle: solid %+v, dashed %+v", solid, dashed)
	}
	xmin, xmax, ymin, ymax := HLine{Y: 7}.DataRange()
	if xmin != 0 || xmax != 0 || ymin != 7 || ymax != 7 {
		t.Errorf("HLine{Y: 7}.DataRange() = %v %v %v %v, want 0 0 7 7", xmin, xmax, ymin, ymax)
	}
}

// A figure's PNG is its size in points at the package's resolution.
func TestFigurePNGSize(t *testing.T) {
	ps, rs := recordedPanels(1)
	f := Figure{Name: "x", Title: "t", Width: 360, Height: 216, Body: Single(ps[0])}
	b, err := f.PNG()
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if got := img.Bounds().Size(); got.X != 360*dpi/72 || got.Y != 216*dpi/72 || rs[0].drawn != 1 {
		t.Errorf("PNG of 360×216 points is %v pixels (body drawn %d times), want %d×%d", got, rs[0].drawn, 360*dpi/72, 216*dpi/72)
	}
}
