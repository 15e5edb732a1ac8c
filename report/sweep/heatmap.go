package sweep

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/run"
)

// heatmapFigure draws, for each lane, the panel's figure over the grid of the
// two varies, on one colour scale shared by every lane. Points that meet every
// --where for the lane are outlined; the recommended one is ringed.
func (s Report) heatmapFigure(p sweepPanel) *chart.Figure {
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
	ramp := figureRamp(name, lo, hi)
	var plots []*plot.Plot
	for li, l := range lanes {
		pl := chart.NewPlot(l.Title, vx.Path, vy.Path)
		pl.X.Tick.Marker, pl.Y.Tick.Marker = labelTicks(vx.Values), labelTicks(vy.Values)
		cl := cells{nx: len(vx.Values), ny: len(vy.Values), values: values[li], colour: ramp.At, text: func(v float64) string { return formatFigure(name, v/k) }}
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
	caption := fmt.Sprintf("%s: %s at each point, one panel per lane; %s, on one scale from %s to %s for every lane (the legend).",
		p.title(), meanOver(s.Result.Seeds), ramp.reads(), formatFigure(name, lo/k), formatFigure(name, hi/k))
	if s.Objective != nil {
		caption += " An outlined cell meets every --where for its lane; the ringed one is recommended."
	}
	return &chart.Figure{Name: "sweep-heatmap", Title: s.Result.Scenario + ": " + p.title(), Caption: caption,
		Legend: ramp.legend(func(v float64) string { return formatFigure(name, v/k) }),
		Width:  11 * vg.Inch, Height: vg.Length(0.8+2.6*float64(rows)) * vg.Inch, Body: chart.Grid(plots, cols)}
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
	sty := chart.TextStyle(8)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YCenter
	showText := c.nx <= 8 && c.ny <= 12
	for i, v := range c.values {
		x, y := float64(i/c.ny), float64(i%c.ny)
		x0, x1, y0, y1 := tx(x-0.5), tx(x+0.5), ty(y-0.5), ty(y+0.5)
		rect := []vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}
		if math.IsNaN(v) {
			cv.FillPolygon(chart.ColGrid, rect)
			continue
		}
		cv.FillPolygon(c.colour(v), rect)
		if c.meets[i] {
			in := vg.Points(1.5)
			cv.StrokeLines(chart.LineStyle(chart.ColLimit, 1.5, false), []vg.Point{{X: x0 + in, Y: y0 + in}, {X: x1 - in, Y: y0 + in}, {X: x1 - in, Y: y1 - in}, {X: x0 + in, Y: y1 - in}, {X: x0 + in, Y: y0 + in}})
		}
		if showText {
			cv.FillText(sty, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2}, c.text(v))
		}
		if i == c.recommended {
			g := draw.GlyphStyle{Color: chart.ColLimit, Radius: min(x1-x0, y1-y0) * 0.42, Shape: draw.RingGlyph{}}
			cv.DrawGlyph(g, vg.Point{X: (x0 + x1) / 2, Y: (y0 + y1) / 2})
		}
	}
}

func (c cells) DataRange() (xmin, xmax, ymin, ymax float64) {
	return -0.5, float64(c.nx) - 0.5, -0.5, float64(c.ny) - 0.5
}

// meanOver says what a cell holds: "the mean over 5 seeds", or "the figure
// from 1 seed" (never "1 seeds").
func meanOver(seeds int) string {
	if seeds == 1 {
		return "the figure from 1 seed"
	}
	return fmt.Sprintf("the mean over %d seeds", seeds)
}

// goodWhen says which end of a figure is good: +1 for the more the better
// (success), -1 for the less (refusals, the peak over the limit), 0 for a
// figure that is neither (attempts offered).
func goodWhen(name string) int {
	switch name {
	case "success_rate", "succeeded", "admitted", "admitted_rate", "fairness":
		return +1
	case "attempts", "unique", "delayed":
		return 0
	}
	return -1
}

// heatRamp colours a figure from lo to hi so that its good end reads as good:
// bluish green where the figure is good, vermillion where it is bad, light in
// between (the Okabe–Ito hues the other plots use, lightened so a cell's
// number stays legible); a figure that is neither good nor bad runs from light
// to blue.
type heatRamp struct {
	lo, hi float64
	stops  [3]color.RGBA // at lo, midway, at hi
	good   int
}

var (
	heatGood    = color.RGBA{R: 86, G: 186, B: 152, A: 255}
	heatBad     = color.RGBA{R: 232, G: 140, B: 88, A: 255}
	heatMiddle  = color.RGBA{R: 246, G: 244, B: 236, A: 255}
	heatNeutral = color.RGBA{R: 110, G: 160, B: 210, A: 255}
)

func figureRamp(name string, lo, hi float64) heatRamp {
	r := heatRamp{lo: lo, hi: hi, good: goodWhen(name)}
	switch r.good {
	case +1:
		r.stops = [3]color.RGBA{heatBad, heatMiddle, heatGood}
	case -1:
		r.stops = [3]color.RGBA{heatGood, heatMiddle, heatBad}
	default:
		r.stops = [3]color.RGBA{heatMiddle, mix(heatMiddle, heatNeutral, 0.5), heatNeutral}
	}
	return r
}

// At is v's colour; NaN is grey.
func (r heatRamp) At(v float64) color.Color {
	if math.IsNaN(v) {
		return chart.ColDropped
	}
	f := 0.5
	if r.hi > r.lo {
		f = min(max((v-r.lo)/(r.hi-r.lo), 0), 1)
	}
	if f < 0.5 {
		return mix(r.stops[0], r.stops[1], 2*f)
	}
	return mix(r.stops[1], r.stops[2], 2*f-1)
}

// reads says in words which colour is which.
func (r heatRamp) reads() string {
	switch r.good {
	case +1:
		return "green is good (high), orange bad (low)"
	case -1:
		return "green is good (low), orange bad (high)"
	}
	return "light is low, blue high"
}

// legend is the scale: five swatches from lo to hi, each with its value, the
// ends named best and worst for a figure that has a good end.
func (r heatRamp) legend(text func(float64) string) []chart.LegendEntry {
	var out []chart.LegendEntry
	for i := range 5 {
		v := r.lo + (r.hi-r.lo)*float64(i)/4
		label := text(v)
		switch {
		case i == 0 && r.good == -1, i == 4 && r.good == +1:
			label += " (best)"
		case i == 0 && r.good == +1, i == 4 && r.good == -1:
			label += " (worst)"
		}
		out = append(out, chart.LegendEntry{Label: label, Colour: r.At(v)})
	}
	return out
}

func mix(a, b color.RGBA, f float64) color.RGBA {
	m := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + (float64(y)-float64(x))*f)) }
	return color.RGBA{R: m(a.R, b.R), G: m(a.G, b.G), B: m(a.B, b.B), A: 255}
}
