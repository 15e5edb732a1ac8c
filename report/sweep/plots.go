package sweep

import (
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
	"github.com/rlsim/rlsim/scenarios"
)

// sweepPanel is one figure of one class (or the totals, class "") that the
// sweep's plots show, with the --where that bounds it when there is one.
type sweepPanel struct {
	figure int
	class  string
	where  *sweep.Where
}

// panels are the figures plotted: each --where's, else the success rate of each class.
func (s Report) panels() []sweepPanel {
	var out []sweepPanel
	seen := map[string]bool{}
	if s.Objective != nil {
		for i, w := range s.Objective.Where {
			key := fmt.Sprint(w.Figure, w.Class)
			if !seen[key] {
				seen[key] = true
				out = append(out, sweepPanel{figure: w.Figure, class: w.Class, where: &s.Objective.Where[i]})
			}
		}
	}
	if len(out) > 0 || len(s.Result.Points) == 0 || len(s.Result.Points[0].Runs) == 0 {
		return out
	}
	success := run.FigureIndex("success_rate")
	for _, c := range s.Result.Points[0].Runs[0].Lanes[0].Classes {
		out = append(out, sweepPanel{figure: success, class: c.Name})
	}
	return out
}

// Figures are the plots of a sweep: a line plot against the first
// --vary, a line per lane with its 95% interval (with one --vary, a panel per
// figure plotted; with more, the first figure at each value of the second);
// with two --vary, also a heatmap per lane of the first figure over the grid.
// The recommended point of each lane is ringed.
func Figures(s Report) []*chart.Figure {
	if len(s.Result.Varies) == 0 || len(s.Result.Points) == 0 || len(s.Result.Points[0].Runs) == 0 || len(s.panels()) == 0 {
		return nil
	}
	figs := []*chart.Figure{s.lineFigure()}
	if len(s.Result.Varies) == 2 {
		figs = append(figs, s.heatmapFigure(s.panels()[0]))
	}
	return figs
}

// axisValue places the value of vary v at point pt on an axis: its number, a
// duration in seconds, or its place in the list.
func axisValue(v sweep.Vary, value string) float64 {
	if f, err := strconv.ParseFloat(value, 64); err == nil {
		return f
	}
	if d, err := time.ParseDuration(value); err == nil {
		return d.Seconds()
	}
	for i, x := range v.Values {
		if x == value {
			return float64(i)
		}
	}
	return 0
}

func (p sweepPanel) title() string {
	who := "all clients"
	if p.class != "" {
		who = p.class
	}
	return who + ": " + run.Figures[p.figure].Name
}

// scale is how the panel's figure is plotted: percentages for fractions.
func scale(name string) float64 {
	if name == "success_rate" || name == "refused_rate" || name == "shed_rate" {
		return 100
	}
	return 1
}

// rowOf is the row of lane li and the panel's class at point pi.
func (s Report) rowOf(pi, li int, p sweepPanel) row {
	r := row{point: pi, li: li, ci: -1}
	if p.class != "" {
		for ci, c := range s.Result.Points[pi].Runs[0].Lanes[li].Classes {
			if c.Name == p.class {
				r.ci, r.class = ci, c.Name
			}
		}
	}
	return r
}

// linePanel is one panel of the line plot: a figure, at the points whose
// values of the other varies are fixed (index of the vary → its value).
type linePanel struct {
	sweepPanel
	fixed map[int]string
	title string
}

func (lp linePanel) holds(pt sweep.PointResult) bool {
	for i, v := range lp.fixed {
		if pt.Values[i] != v {
			return false
		}
	}
	return true
}

// linePanels are, with one --vary, one panel per figure plotted; with more,
// the first figure at each value of the second --vary (up to 8), the others at
// their first value.
func (s Report) linePanels() []linePanel {
	panels := s.panels()
	varies := s.Result.Varies
	if len(varies) == 1 {
		var out []linePanel
		for _, p := range panels {
			out = append(out, linePanel{sweepPanel: p, title: p.title()})
		}
		return out
	}
	if len(panels) == 0 {
		return nil
	}
	var out []linePanel
	for _, v := range varies[1].Values[:min(8, len(varies[1].Values))] {
		lp := linePanel{sweepPanel: panels[0], fixed: map[int]string{1: v}, title: p0title(panels[0], varies[1].Path, v)}
		for i := 2; i < len(varies); i++ {
			lp.fixed[i] = varies[i].Values[0]
		}
		out = append(out, lp)
	}
	return out
}

func p0title(p sweepPanel, path, value string) string { return p.title() + " at " + path + "=" + value }

func (s Report) lineFigure() *chart.Figure {
	v := s.Result.Varies[0]
	lanes := s.Result.Points[0].Runs[0].Lanes
	var plots []*plot.Plot
	panels := s.linePanels()
	lines := make([][][]spreadPoint, len(panels)) // by panel, then lane
	for pi, p := range panels {
		for li := range lanes {
			lines[pi] = append(lines[pi], s.linePoints(p, li))
		}
	}
	var legend []chart.LegendEntry
	for li, l := range lanes {
		label := l.Title
		if same := sameLine(lines, li); same >= 0 {
			label += " (same as " + lanes[same].Title + ", drawn under it)"
		}
		legend = append(legend, chart.LegendEntry{Label: label, Colour: sweepColours[li%len(sweepColours)], Line: true})
	}
	for pi, p := range panels {
		name := run.Figures[p.figure].Name
		k := scale(name)
		label := name
		if k == 100 {
			label += " (%)"
		}
		pl := chart.NewPlot(p.title, v.Path, label)
		// Later lanes first, so a lane whose line another's coincides with
		// shows on top: the legend says which lie under it.
		for li := len(lanes) - 1; li >= 0; li-- {
			pl.Add(spreadLine{pts: lines[pi][li], colour: sweepColours[li%len(sweepColours)]})
		}
		if p.where != nil {
			want := p.where.Want * k
			if p.where.Metric == scenarios.P99TimeToSuccess {
				want /= 1e9 // the figure is in seconds
			}
			pl.Add(threshold{chart.HLine{Y: want, Style: chart.LineStyle(chart.ColLimit, 1, true), Label: p.where.Op + " " + p.where.Text}})
		}
		for _, rec := range s.Recommend {
			if rec.Point < 0 || !p.holds(s.Result.Points[rec.Point]) {
				continue
			}
			pt := s.Result.Points[rec.Point]
			li := laneIndex(pt, rec.Lane)
			sp := s.spread(s.rowOf(rec.Point, li, p.sweepPanel), p.figure)
			pl.Add(ring{x: axisValue(v, pt.Values[0]), y: sp.Mean * k, colour: sweepColours[li%len(sweepColours)]})
		}
		plots = append(plots, pl)
	}
	cols := min(2, max(len(plots), 1))
	rows := (len(plots) + cols - 1) / cols
	caption := fmt.Sprintf("Each line is a lane: %s at each value of %s, with its 95%% interval.", meanOver(s.Result.Seeds), v.Path)
	if s.Objective != nil {
		caption += " A ring marks each lane's recommended point; a dashed line is a --where's threshold."
	}
	return &chart.Figure{Name: "sweep-lines", Title: s.Result.Scenario + ": " + v.Path, Caption: caption, Legend: legend,
		Width: 11 * vg.Inch, Height: vg.Length(1.2+3*float64(rows)) * vg.Inch, Body: chart.Grid(plots, cols)}
}

// linePoints is lane li's line in panel p: its mean and interval at each
// point of the sweep that has the figure, scaled as the panel shows it.
func (s Report) linePoints(p linePanel, li int) []spreadPoint {
	v := s.Result.Varies[0]
	k := scale(run.Figures[p.figure].Name)
	var pts []spreadPoint
	for pi, pt := range s.Result.Points {
		if !p.holds(pt) {
			continue
		}
		sp := s.spread(s.rowOf(pi, li, p.sweepPanel), p.figure)
		if sp.N == 0 || math.IsNaN(sp.Mean) {
			continue
		}
		lo, hi := sp.Lo()*k, sp.Hi()*k
		if k == 100 { // a share's interval ends within 0% and 100%
			lo, hi = math.Max(lo, 0), math.Min(hi, 100)
		}
		pts = append(pts, spreadPoint{x: axisValue(v, pt.Values[0]), y: sp.Mean * k, lo: lo, hi: hi})
	}
	return pts
}

// sameLine is the first lane before li whose line is li's in every panel
// (lines by panel, then lane), so that only one of them would show; or -1.
func sameLine(lines [][][]spreadPoint, li int) int {
	for other := range li {
		same := true
		for _, panel := range lines {
			same = same && slices.Equal(panel[other], panel[li])
		}
		if same {
			return other
		}
	}
	return -1
}

// threshold is a --where's line: it widens the y range to show itself, and
// leaves the x range to the data.
type threshold struct{ chart.HLine }

func (t threshold) DataRange() (xmin, xmax, ymin, ymax float64) {
	return math.Inf(1), math.Inf(-1), t.Y, t.Y
}

// sweepColours tell lanes apart: Okabe–Ito, opaque, grey last.
var sweepColours = []color.Color{chart.ColAdmitted, chart.ColDelayed, chart.ColWithin, chart.ColRefused, chart.ColSky, chart.ColShed, chart.ColLimit, chart.ColDropped}

// spreadPoint is a mean and its interval [lo, hi] at x.
type spreadPoint struct{ x, y, lo, hi float64 }

// spreadLine draws means joined by a line, each with its interval as a bar.
type spreadLine struct {
	pts    []spreadPoint
	colour color.Color
}

func (l spreadLine) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	ls := chart.LineStyle(l.colour, 1.5, false)
	var line []vg.Point
	for _, pt := range l.pts {
		line = append(line, vg.Point{X: tx(pt.x), Y: ty(pt.y)})
		if pt.hi > pt.lo {
			c.StrokeLine2(chart.LineStyle(l.colour, 1, false), tx(pt.x), ty(pt.lo), tx(pt.x), ty(pt.hi))
		}
		c.FillPolygon(l.colour, square(vg.Point{X: tx(pt.x), Y: ty(pt.y)}, vg.Points(2.2)))
	}
	if len(line) > 1 {
		c.StrokeLines(ls, c.ClipLinesXY(line)...)
	}
}

func (l spreadLine) DataRange() (xmin, xmax, ymin, ymax float64) {
	xmin, ymin = math.Inf(1), math.Inf(1)
	xmax, ymax = math.Inf(-1), math.Inf(-1)
	for _, pt := range l.pts {
		xmin, xmax = math.Min(xmin, pt.x), math.Max(xmax, pt.x)
		ymin, ymax = math.Min(ymin, pt.lo), math.Max(ymax, pt.hi)
	}
	if len(l.pts) == 0 {
		return math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	}
	pad := (ymax - ymin) * 0.06 // keep the points off the panel's title
	return xmin, xmax, ymin - pad, ymax + pad
}

func square(at vg.Point, r vg.Length) []vg.Point {
	return []vg.Point{{X: at.X - r, Y: at.Y - r}, {X: at.X + r, Y: at.Y - r}, {X: at.X + r, Y: at.Y + r}, {X: at.X - r, Y: at.Y + r}}
}

// ring circles a recommended point.
type ring struct {
	x, y   float64
	colour color.Color
}

func (r ring) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	sty := draw.GlyphStyle{Color: r.colour, Radius: vg.Points(7), Shape: draw.RingGlyph{}}
	c.DrawGlyph(sty, vg.Point{X: tx(r.x), Y: ty(r.y)})
	sty.Radius, sty.Color = vg.Points(9), chart.ColLimit
	c.DrawGlyph(sty, vg.Point{X: tx(r.x), Y: ty(r.y)})
}

func (r ring) DataRange() (xmin, xmax, ymin, ymax float64) { return r.x, r.x, r.y, r.y }
