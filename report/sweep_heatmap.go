package report

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rlsim/rlsim/run"
)

// heatmapFigure draws, for each lane, the panel's figure over the grid of the
// two varies, on one colour scale shared by every lane. Points that meet every
// --where for the lane are outlined; the recommended one is ringed.
func (s Sweep) heatmapFigure(p sweepPanel) *Figure {
	vx, vy := s.Result.Varies[0], s.Result.Varies[1]
	name := run.Figures[p.figure].Name
	k := scale(name)
	lanes := s.Result.Points[0].Runs[0].Lanes
	lo, hi := math.Inf(1), math.Inf(-1)
	values := make([][]float64, len(lanes))
	for li := range lanes {
		for pi := range s.Result.Points {
			v := s.spread(s.rowOf(pi, li, p), p.figure).Mean * k
			values[li] = append(values[li], v)
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if hi <= lo {
		lo, hi = lo-1, lo+1
	}
	cmap := moreland.SmoothBlueRed()
	cmap.SetMin(lo)
	cmap.SetMax(hi)
	var plots []*plot.Plot
	for li, l := range lanes {
		pl := newPlot(l.Title, vx.Path, vy.Path)
		pl.X.Tick.Marker, pl.Y.Tick.Marker = labelTicks(vx.Values), labelTicks(vy.Values)
		cl := cells{nx: len(vx.Values), ny: len(vy.Values), values: values[li], colour: func(v float64) color.Color {
			c, err := cmap.At(v)
			if err != nil {
				return colDropped
			}
			return c
		}, text: func(v float64) string { return formatFigure(name, v/k) }}
		for _, pt := range s.Result.Points {
			cl.meets = append(cl.meets, s.Objective != nil && s.Objective.Meets(pt, li))
		}
		cl.recommended = -1
		for _, rec := range s.Recommend {
			if rec.Lane == l.Lane {
				cl.recommended = rec.Point
			}
		}
		pl.Add(cl)
		plots = append(plots, pl)
	}
	cols := min(4, len(plots))
	rows := (len(plots) + cols - 1) / cols
	caption := fmt.Sprintf("%s: the mean over %d seeds at each point, one panel per lane; blue is low, red is high, on one scale from %s to %s for every lane.",
		p.title(), s.Result.Seeds, formatFigure(name, lo/k), formatFigure(name, hi/k))
	if s.Objective != nil {
		caption += " An outlined cell meets every --where for its lane; the ringed one is recommended."
	}
	return &Figure{Name: "sweep-heatmap", Title: s.Result.Scenario + ": " + p.title(), Caption: caption,
		Width: 11 * vg.Inch, Height: vg.Length(0.8+2.6*float64(rows)) * vg.Inch, body: grid(plots, cols)}
}

// labelTicks put each value's label at its index.
type labelTicks []string

func (t labelTicks) Ticks(_, _ float64) []plot.Tick {
	var ticks []plot.Tick
	step := max(1, len(t)/8)
	for i, v := range t {
		label := ""
		if i%step == 0 {
			label = v
		}
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: label})
	}
	return ticks
}

// cells draws a grid of nx × ny coloured cells, point i at (i/ny, i%ny).
type cells struct {
	nx, ny      int
	values      []float64
	meets       []bool
	recommended int
	colour      func(float64) color.Color
	text        func(float64) string
}

func (c cells) Plot(cv draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&cv)
	sty := textStyle(8)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	showText := c.nx <= 8 && c.ny <= 12
	for i, v := range c.values {
		x, y := float64(i/c.ny), float64(i%c.ny)
		x0, x1, y0, y1 := tx(x-0.5), tx(x+0.5), ty(y-0.5), ty(y+0.5)
		rect := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		if math.IsNaN(v) {
			cv.FillPolygon(colGrid, rect)
			continue
		}
		cv.FillPolygon(c.colour(v), rect)
		if c.meets[i] {
			in := vg.Points(1.5)
			cv.StrokeLines(lineStyle(colLimit, 1.5, false), []vg.Point{{X: x0 + in, Y: y0 + in}, {X: x1 - in, Y: y0 + in}, {X: x1 - in, Y: y1 - in}, {X: x0 + in, Y: y1 - in}, {X: x0 + in, Y: y0 + in}})
		}
		if showText {
			cv.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, c.text(v))
		}
		if i == c.recommended {
			g := draw.GlyphStyle{Color: colLimit, Radius: min(x1-x0, y1-y0) * 0.42, Shape: draw.RingGlyph{}}
			cv.DrawGlyph(g, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2})
		}
	}
}

func (c cells) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(c.nx) - 0.5, -0.5, float64(c.ny) - 0.5
}
