package report

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/sim"
)

// Figures lists the plots worth drawing for a run: for a comparison the lanes
// timeline (when the run has a Timeline), the admitted rate against the limit and
// the most admitted in any window, then what the scenario is about when it has
// it: retries, the backend, client classes. A contention study has one figure.
func Figures(run Run) []*chart.Figure { return run.kind().figures() }

func (run comparison) figures() []*chart.Figure {
	if run.Result == nil {
		return nil
	}
	r := *run.Result
	var figs []*chart.Figure
	if run.Timeline != nil {
		figs = append(figs, timelineFigure(r, run.Timeline, run.topology()))
	}
	topo := run.topology()
	figs = append(figs, rateFigure(r, topo, "rate", "Admitted rate over time, lane by lane", "admitted", admittedOf, chart.ColAdmitted), PeakFigure(r))
	if retried(r) {
		figs = append(figs, rateFigure(r, topo, "attempts", "Attempts per second, retries included", "attempts", attemptsOf, chart.ColRefused), WorkFigure(r))
	}
	if hasBackend(r) {
		if run.Timeline != nil {
			figs = append(figs, LatencyFigure(r, run.Timeline))
		}
		figs = append(figs, InFlightFigure(r))
	}
	if len(classNames(r)) > 1 {
		figs = append(figs, ClassFigure(r))
	}
	if hasAdaptive(r) {
		figs = append(figs, AdaptiveFigure(r))
	}
	if f := ShardFigure(r, topo); f != nil {
		figs = append(figs, f)
	}
	if f := StoreSeriesFigure(r, topo); f != nil {
		figs = append(figs, f)
	}
	return figs
}

func retried(r sim.Result) bool {
	for _, l := range r.Lanes {
		if l.RetryAmplification >= 1.2 {
			return true
		}
	}
	return false
}

func hasBackend(r sim.Result) bool {
	for _, l := range r.Lanes {
		if l.Backend.Served > 0 {
			return true
		}
	}
	return false
}

// firstLimit is the limit the peaks and the rate plots are measured against.
func firstLimit(r sim.Result) (limit int64, window time.Duration, key sim.KeyKind, ok bool) {
	if len(r.Limits) == 0 {
		return 0, 0, 0, false
	}
	l := r.Limits[0]
	return l.Policy.Limit, l.Policy.Window, l.Key, true
}

// end is where the time axes of a run stop: the last bucket of any lane's series.
func end(r sim.Result) float64 { return endAt(r).Seconds() }

// endAt is end in virtual time.
func endAt(r sim.Result) time.Duration {
	e := r.Duration
	for _, l := range r.Lanes {
		if n := len(l.Series); n > 0 {
			e = max(e, l.Series[n-1].Start+r.Bucket)
		}
	}
	return e
}

// buckets is how many series buckets the time axes span, counted in integer
// time: through float seconds the last bucket can be lost or doubled.
func buckets(r sim.Result) int {
	if r.Bucket <= 0 {
		return 0
	}
	return int((endAt(r) + r.Bucket - 1) / r.Bucket)
}

// --- (a) the lanes timeline ---

// timelineBins is how many bins the PNG timeline draws across: a few pixels each.
const timelineBins = 400

// bin is one drawn column of the lanes timeline, from Start to End seconds.
type bin struct {
	Start, End float64
	Column
}

// laneBins merges the lane's columns into n bins (n divides TimelineColumns)
// and returns the bins holding any attempt, in time order.
func laneBins(tl *Timeline, lane int, n int) []bin {
	cols := tl.Columns(lane)
	if cols == nil {
		return nil
	}
	per := TimelineColumns / n
	w := tl.ColumnWidth().Seconds()
	var out []bin
	for i := 0; i < n; i++ {
		var c Column
		for _, x := range cols[i*per : (i+1)*per] {
			for m := range sim.Mark(sim.MarkKinds) {
				*c.Of(m) += *x.Of(m)
			}
			c.Shadow += x.Shadow
		}
		if c.Total() > 0 {
			out = append(out, bin{Start: float64(i*per) * w, End: float64((i+1)*per) * w, Column: c})
		}
	}
	return out
}

// TimelineFigure draws one row per lane: admitted and delayed attempts rise above
// the row's midline, refused, shed and dropped ones hang below, and the lane's
// worst window (its most admitted in any window) is shaded.
func TimelineFigure(r sim.Result, tl *Timeline) *chart.Figure { return timelineFigure(r, tl, nil) }

// timelineFigure is TimelineFigure with the store's outages shaded and the
// autoscaler's steps marked, when topo has them.
func timelineFigure(r sim.Result, tl *Timeline, topo *sim.Topology) *chart.Figure {
	n := len(r.Lanes)
	rows := make([][]bin, n)
	var most int64
	for i := range r.Lanes {
		rows[i] = laneBins(tl, i, timelineBins)
		for _, b := range rows[i] {
			most = max(most, b.Admitted+b.Delayed, b.Refused+b.Shed+b.Dropped)
		}
	}
	p := chart.NewPlot("", "virtual time (s)", "")
	p.Y.Min, p.Y.Max = -0.5, float64(n)-0.5
	p.X.Min, p.X.Max = 0, math.Max(end(r), tl.Last().Seconds())
	var ticks []plot.Tick
	for i, l := range r.Lanes {
		ticks = append(ticks, plot.Tick{Value: float64(n - 1 - i), Label: l.Title()})
	}
	p.Y.Tick.Label.Font.Size = 11
	p.Y.Tick.Length = 0
	p.Add(lanesPlotter{r: r, rows: rows, most: most, topo: topo})
	f := &chart.Figure{
		Name: "timeline", Title: "Lanes timeline: what each lane did to every attempt",
		Caption: "One row per lane. Admitted and delayed attempts rise above each row's midline; refused (" + refusalStatuses(r) + "), shed (503) and " +
			"client-dropped ones hang below. Bar height grows with the square root of the attempts in a " +
			fmt.Sprintf("%s column, so single requests stay visible. ", FormatDuration(time.Duration(float64(tl.ColumnWidth())*TimelineColumns/timelineBins))) +
			"The yellow band is the lane's worst window: where it admitted the most in one window.",
		Width: 11 * vg.Inch, Height: vg.Length(1.6+0.62*float64(n)) * vg.Inch,
		Legend: append(markLegend(r), chart.LegendEntry{Label: "worst window", Colour: chart.ColShade}),
		Body:   chart.Single(p),
	}
	if hasShadow(r) {
		f.Caption += " A hollow vermillion bar below the midline counts the attempts a shadow limit would have refused and let through."
		f.Legend = append(f.Legend, chart.LegendEntry{Label: "would be refused (shadow)", Colour: chart.ColShadowMark, Line: true})
	}
	if len(r.Rules) > 0 {
		f.Caption += " A dashed line marks each rule push, labelled with what it set."
		f.Legend = append(f.Legend, chart.LegendEntry{Label: "rule push", Colour: chart.ColLimit, Line: true, Dashed: true})
	}
	addTopologyLegend(f, topo)
	addFailingLegend(f, r)
	addHealthLegend(f, r)
	p.Y.Tick.Marker = plot.ConstantTicks(addFleetRows(f, p, r, topo, ticks))
	return f
}

// markLegend names sim's marks in their order, in their colours.
func markLegend(r sim.Result) []chart.LegendEntry {
	out := make([]chart.LegendEntry, 0, sim.MarkKinds+1)
	for m := range sim.Mark(sim.MarkKinds) {
		label := m.Info().Legend
		if m == sim.MarkRefused {
			label = "refused (" + refusalStatuses(r) + ")"
		}
		out = append(out, chart.LegendEntry{Label: label, Colour: chart.MarkColour(m)})
	}
	return out
}

// refusalStatuses are the HTTP statuses r's lanes refuse with, in order:
// "429", or "429 or 503" when lanes differ.
func refusalStatuses(r sim.Result) string {
	var codes []int
	for _, l := range r.Lanes {
		codes = append(codes, cmp.Or(l.RefusalStatus, sim.StatusTooManyRequests))
	}
	if len(codes) == 0 {
		codes = []int{sim.StatusTooManyRequests}
	}
	slices.Sort(codes)
	var names []string
	for _, c := range slices.Compact(codes) {
		names = append(names, strconv.Itoa(c))
	}
	return strings.Join(names, " or ")
}

type lanesPlotter struct {
	r    sim.Result
	rows [][]bin
	most int64
	topo *sim.Topology // nil: no outages or autoscaler steps to draw
}

// height is the half-row fraction a count gets: √(count/most), at least a tick's.
func (lp lanesPlotter) height(count int64) float64 {
	if count == 0 || lp.most == 0 {
		return 0
	}
	return max(0.1, 0.44*math.Sqrt(float64(count)/float64(lp.most)))
}

func (lp lanesPlotter) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	rect := func(clr color.Color, x0, x1, y0, y1 float64) {
		a, b := tx(x0), tx(x1)
		if b-a < 1 {
			b = a + 1
		}
		c.FillPolygon(clr, []vg.Point{{X: a, Y: ty(y0)}, {X: b, Y: ty(y0)}, {X: b, Y: ty(y1)}, {X: a, Y: ty(y1)}})
	}
	n := len(lp.r.Lanes)
	drawOutages(c, p, lp.topo, float64(n)-0.5)
	for i, l := range lp.r.Lanes {
		y := float64(n - 1 - i)
		if l.Peak.End > l.Peak.Start && l.Peak.Count > 0 {
			rect(chart.ColShade, l.Peak.Start.Seconds(), l.Peak.End.Seconds(), y-0.5, y+0.5)
		}
		drawBands(c, p, lp.r, i, y)
		c.StrokeLine2(draw.LineStyle{Color: chart.ColGrid, Width: vg.Points(0.5)}, c.Min.X, ty(y), c.Max.X, ty(y))
		for _, b := range lp.rows[i] {
			// Stacks: admitted then delayed upwards, refused, shed, dropped downwards,
			// the whole stack's height from the total and split in proportion.
			up := lp.height(b.Admitted + b.Delayed)
			if up > 0 {
				a := up * float64(b.Admitted) / float64(b.Admitted+b.Delayed)
				if b.Admitted > 0 {
					rect(chart.ColAdmitted, b.Start, b.End, y, y+a)
				}
				if b.Delayed > 0 {
					rect(chart.ColDelayed, b.Start, b.End, y+a, y+up)
				}
			}
			down := b.Refused + b.Shed + b.Dropped
			if h := lp.height(down); h > 0 {
				at := y
				for _, part := range []struct {
					n   int64
					clr color.Color
				}{{b.Refused, chart.ColRefused}, {b.Shed, chart.ColShed}, {b.Dropped, chart.ColDropped}} {
					if part.n > 0 {
						d := h * float64(part.n) / float64(down)
						rect(part.clr, b.Start, b.End, at-d, at)
						at -= d
					}
				}
			}
			if h := lp.height(b.Shadow); h > 0 {
				a, z := tx(b.Start), max(tx(b.End), tx(b.Start)+1)
				c.StrokeLines(draw.LineStyle{Color: chart.ColShadowMark, Width: vg.Points(0.6)},
					[]vg.Point{{X: a, Y: ty(y)}, {X: a, Y: ty(y - h)}, {X: z, Y: ty(y - h)}, {X: z, Y: ty(y)}})
			}
		}
	}
	for _, ch := range lp.r.Rules {
		markTime(c, p, ch.At, "rule push: "+ruleLabel(lp.r, ch), []vg.Length{vg.Points(3), vg.Points(2)}, 0)
	}
	drawReplicaSteps(c, p, lp.topo)
}

// markTime draws a vertical line across the plot at t, dashed as dashes, with
// text at its top, lowered by row label heights (so that marks at the same
// time do not overwrite each other's labels).
func markTime(c draw.Canvas, p *plot.Plot, t time.Duration, text string, dashes []vg.Length, row int) {
	tx, _ := p.Transforms(&c)
	x := tx(t.Seconds())
	if x < c.Min.X || x > c.Max.X {
		return
	}
	c.StrokeLine2(draw.LineStyle{Color: chart.ColLimit, Width: vg.Points(0.8), Dashes: dashes}, x, c.Min.Y, x, c.Max.Y)
	label := p.X.Tick.Label
	label.XAlign, label.YAlign = draw.XLeft, draw.YTop
	w, h := label.Width(text), label.Height(text)
	at := vg.Point{X: x + vg.Points(2), Y: c.Max.Y - vg.Points(1) - vg.Length(row)*(h+vg.Points(2))}
	c.FillPolygon(color.NRGBA{0xff, 0xff, 0xff, 0xd8}, []vg.Point{{X: at.X - 1, Y: at.Y + 1}, {X: at.X + w + 2, Y: at.Y + 1},
		{X: at.X + w + 2, Y: at.Y - h - 1}, {X: at.X - 1, Y: at.Y - h - 1}})
	c.FillText(label, at, text)
}

// --- (b) admitted rate against the limit ---

// trailingRate turns a lane's series into a rate per second over the trailing
// window: at the end of each bucket, what field counts over the last
// round(window/bucket) buckets (at least one), divided by their length. It
// draws n buckets (at least the series'), the ones past the series' end empty,
// so a line falls back to zero once the lane stops admitting rather than
// stopping in mid-air. sim picks buckets that tile the window, so the counted
// span is one window and no point exceeds the most admitted in any window.
func trailingRate(series []sim.Point, bucket, window time.Duration, field func(sim.Point) int64, n int) plotter.XYs {
	if bucket <= 0 {
		return nil
	}
	k := max(1, int((window+bucket/2)/bucket))
	span := (time.Duration(k) * bucket).Seconds()
	n = max(n, len(series))
	at := func(i int) int64 {
		if i < len(series) {
			return field(series[i])
		}
		return 0
	}
	out := make(plotter.XYs, n)
	var sum int64
	for i := range n {
		sum += at(i)
		if i >= k {
			sum -= at(i - k)
		}
		out[i] = plotter.XY{X: (time.Duration(i+1) * bucket).Seconds(), Y: float64(sum) / span}
	}
	return out
}

// rateBuckets is how many buckets a rate figure draws: the run's, and then up
// to one trailing window more (at most half the run again) so that lines whose
// counts stopped near the end visibly fall back to zero.
func rateBuckets(r sim.Result, window time.Duration, field func(sim.Point) int64) int {
	n := buckets(r)
	if r.Bucket <= 0 {
		return n
	}
	k := max(1, int((window+r.Bucket/2)/r.Bucket))
	last := -1
	for _, l := range r.Lanes {
		for i := len(l.Series) - 1; i > last; i-- {
			if field(l.Series[i]) != 0 {
				last = i
				break
			}
		}
	}
	return max(n, min(last+k+1, n+n/2))
}

func admittedOf(p sim.Point) int64 { return p.Admitted }
func attemptsOf(p sim.Point) int64 { return p.Attempts }

// RateFigure shows, lane by lane, the admitted rate over the trailing window of
// the first limit against the limit's rate.
func RateFigure(r sim.Result) *chart.Figure {
	return rateFigure(r, nil, "rate", "Admitted rate over time, lane by lane", "admitted", admittedOf, chart.ColAdmitted)
}

// AttemptsFigure shows, lane by lane, the attempts per second (retries included)
// against the limit's rate: a retry storm's waves.
func AttemptsFigure(r sim.Result) *chart.Figure {
	return rateFigure(r, nil, "attempts", "Attempts per second, retries included", "attempts", attemptsOf, chart.ColRefused)
}

// rateFigure draws field's rate lane by lane; the store's outages are shaded
// and the autoscaler's steps marked when topo has them.
func rateFigure(r sim.Result, topo *sim.Topology, name, title, what string, field func(sim.Point) int64, clr color.Color) *chart.Figure {
	limit, window, key, ok := firstLimit(r)
	if !ok || window <= 0 {
		window = time.Second
	}
	rate := float64(limit) / window.Seconds()
	n := rateBuckets(r, window, field)
	xEnd := max(end(r), (time.Duration(n) * r.Bucket).Seconds())
	var panels []*plot.Plot
	var top float64
	lines := make([]plotter.XYs, len(r.Lanes))
	for i, l := range r.Lanes {
		lines[i] = trailingRate(l.Series, r.Bucket, window, field, n)
		for _, pt := range lines[i] {
			top = max(top, pt.Y)
		}
	}
	global := ok && key == sim.KeyGlobal
	if global {
		top = max(top, 2*rate)
	}
	for i, l := range r.Lanes {
		p := chart.NewPlot(l.Title(), "virtual time (s)", "per second")
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, xEnd, 0, top*1.08
		if topo != nil {
			p.Add(topologyMarks{topo})
		}
		if global {
			p.Add(chart.HLine{Y: rate, Style: chart.LineStyle(chart.ColLimit, 1.2, true)})
		}
		if ln, err := plotter.NewLine(lines[i]); err == nil {
			ln.LineStyle = chart.LineStyle(clr, 1.5, false)
			p.Add(ln)
		}
		panels = append(panels, p)
	}
	legend := []chart.LegendEntry{{Label: fmt.Sprintf("%s per second over the trailing %s", what, FormatDuration(window)),
		Colour: clr, Line: true}}
	caption := fmt.Sprintf("Each point counts the %s in the %s before it, so a line above the dashed limit means more than the limit got through one window.", what, FormatDuration(window))
	if global {
		legend = append(legend, chart.LegendEntry{Label: fmt.Sprintf("limit: %d per %s", limit, FormatDuration(window)), Colour: chart.ColLimit, Line: true, Dashed: true})
	} else if ok {
		caption += fmt.Sprintf(" The limit counts per %s, so the lanes' totals are not held to one line.", key)
	}
	cols := 4
	if len(panels) < 4 {
		cols = len(panels)
	}
	rows := (len(panels) + cols - 1) / max(cols, 1)
	f := &chart.Figure{Name: name, Title: title, Caption: caption, Legend: legend,
		Width: 11 * vg.Inch, Height: vg.Length(0.9+2.3*float64(rows)) * vg.Inch, Body: chart.Grid(panels, max(cols, 1))}
	addTopologyLegend(f, topo)
	return f
}

// --- (c) the most admitted in any window ---

// peakBars are the lanes' peaks, the most admitted in any window, per lane,
// and how each bar is judged, by the rules of the findings and the badges:
// over the limit, within it, not limiting (a lane whose limit is not a rate
// and that admitted everything), or a concurrency limit, which is never held
// against the rate.
func peakBars(r sim.Result) (values plotter.Values, judged []barJudgement) {
	for _, l := range r.Lanes {
		values = append(values, float64(l.Peak.Count))
		switch j := judge(l); {
		case j.NotLimiting:
			judged = append(judged, barNotLimiting)
		case j.Concurrency:
			judged = append(judged, barConcurrency)
		case j.Over:
			judged = append(judged, barOver)
		default:
			judged = append(judged, barWithin)
		}
	}
	return values, judged
}

type barJudgement int

const (
	barWithin barJudgement = iota
	barOver
	barNotLimiting
	barConcurrency
)

var barColours = map[barJudgement]color.Color{barWithin: chart.ColWithin, barOver: chart.ColRefused, barNotLimiting: chart.ColDropped, barConcurrency: chart.ColDropped}

// PeakFigure draws each lane's most admitted in any window as a bar, against the
// limit and twice the limit (the fixed window's worst case). The lines are
// named in the legend, not on the plot, where a label would cover a bar.
func PeakFigure(r sim.Result) *chart.Figure {
	limit, window, key, _ := firstLimit(r)
	values, judged := peakBars(r)
	limits, one := peakLimits(r, limit)
	p := chart.NewPlot("", "", fmt.Sprintf("admitted in one %s window (cost units)", FormatDuration(window)))
	var labels []string
	top := 2.2 * float64(limit)
	for i, l := range r.Lanes {
		labels = append(labels, l.Title())
		top = max(top, values[i]*1.12, 2.2*float64(limits[i]))
	}
	p.Y.Min, p.Y.Max = 0, top
	// The lines go under the bars, so a bar is never crossed by one.
	if one {
		limit = limits[0]
		p.Add(chart.HLine{Y: float64(limit), Style: chart.LineStyle(chart.ColLimit, 1.4, true)},
			chart.HLine{Y: 2 * float64(limit), Style: chart.LineStyle(chart.ColDropped, 1.2, true)})
	} else {
		p.Add(barLimits{limits: limits})
	}
	legend := []chart.LegendEntry{}
	for _, group := range []barJudgement{barWithin, barOver, barNotLimiting, barConcurrency} {
		vs := make(plotter.Values, len(values))
		any := false
		for i := range values {
			if judged[i] == group {
				vs[i], any = values[i], true
			}
		}
		if !any {
			continue
		}
		bars, err := plotter.NewBarChart(vs, vg.Points(34))
		if err != nil {
			continue
		}
		bars.LineStyle.Width = 0
		bars.Color = barColours[group]
		p.Add(bars)
		legend = append(legend, chart.LegendEntry{Label: [...]string{"within the limit", "over the limit", "limited nothing (not a rate limit)", "limits concurrency (not judged against the rate)"}[group],
			Colour: barColours[group]})
	}
	p.Add(barLabels{values: values, limits: limits})
	legend = append(legend, addReplicaPeaks(p, r)...)
	p.NominalX(labels...)
	// A slot of one unit per bar, so the first and last bars' labels (a
	// count of seven digits and its ratio) stay inside the plot.
	p.X.Min, p.X.Max = -0.5, float64(len(values))-0.5
	p.X.Tick.Label.Rotation = 0.35
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	keyNote := ""
	if key != sim.KeyGlobal {
		keyNote = fmt.Sprintf(", for the busiest %s", key)
	}
	caption := "The exact maximum over every start time. A bar above the limit line means the lane let more than the limit through " +
		"one window; a fixed window can reach twice the limit around a window boundary."
	if one {
		legend = append(legend, chart.LegendEntry{Label: fmt.Sprintf("limit (%d)", limit), Colour: chart.ColLimit, Line: true, Dashed: true},
			chart.LegendEntry{Label: fmt.Sprintf("twice the limit (%d)", 2*limit), Colour: chart.ColDropped, Line: true, Dashed: true})
	} else {
		legend = append(legend, chart.LegendEntry{Label: "the lane's limit in force then", Colour: chart.ColLimit, Line: true, Dashed: true},
			chart.LegendEntry{Label: "twice it", Colour: chart.ColDropped, Line: true, Dashed: true})
		caption = "The exact maximum over every start time, each window within one rule. The lanes' busiest windows are held to " +
			"different limits (a rule push, a lane's own limit): each bar's limit in force is drawn across its slot, with twice it; " +
			"a bar above its limit means the lane let more than the limit through one window."
	}
	f := &chart.Figure{Name: "peak", Title: fmt.Sprintf("The most admitted in any %s window%s", FormatDuration(window), keyNote),
		Caption: caption, Legend: legend, Width: 11 * vg.Inch, Height: 4.6 * vg.Inch, Body: chart.Single(p)}
	if hasTopology(r) {
		f.Caption += " With replicas, a bar counts across the whole fleet, and the black tick across it is the most the busiest replica admitted."
	}
	return f
}

// peakLimits is the limit each lane's busiest window is held to (its
// Peak.Limit: its own first limit, in force during that window), or limit
// for a lane with none; one reports whether they are all the same.
func peakLimits(r sim.Result, limit int64) (limits []int64, one bool) {
	one = true
	for _, l := range r.Lanes {
		at := l.Peak.Limit
		if at <= 0 {
			at = limit
		}
		one = one && (len(limits) == 0 || at == limits[0])
		limits = append(limits, at)
	}
	return limits, one
}

// barLimits draws each bar's own limit, and twice it, across its slot: for
// lanes held to different limits.
type barLimits struct{ limits []int64 }

func (b barLimits) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	for i, l := range b.limits {
		for k, sty := range []draw.LineStyle{chart.LineStyle(chart.ColLimit, 1.4, true), chart.LineStyle(chart.ColDropped, 1.2, true)} {
			y := ty(float64(int64(k+1) * l))
			c.StrokeLine2(sty, tx(float64(i)-0.45), y, tx(float64(i)+0.45), y)
		}
	}
}

// barLabels writes each bar's value and its ratio to its own limit above it.
type barLabels struct {
	values plotter.Values
	limits []int64
}

func (b barLabels) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	sty := chart.TextStyle(10)
	sty.XAlign, sty.YAlign = draw.XCenter, draw.YBottom
	for i, v := range b.values {
		s := fmt.Sprintf("%d", int64(v))
		if b.limits[i] > 0 {
			s += fmt.Sprintf(" (%s×)", sim.RatioText(int64(v), b.limits[i], false))
		}
		c.FillText(sty, vg.Point{X: tx(float64(i)), Y: ty(v) + vg.Points(2)}, s)
	}
}

// --- (d) what the scenario is about ---

// workPoints places each lane at (when every request was done, total attempts).
func workPoints(r sim.Result) plotter.XYs {
	out := make(plotter.XYs, len(r.Lanes))
	for i, l := range r.Lanes {
		out[i] = plotter.XY{X: l.AllDoneAt.Seconds(), Y: float64(l.Attempts)}
	}
	return out
}

// WorkFigure plots each lane's total work (attempts, retries included) against the
// time until every request had succeeded or given up: lower left is better.
func WorkFigure(r sim.Result) *chart.Figure {
	pts := workPoints(r)
	p := chart.NewPlot("", "time until every request succeeded or gave up (s)", "total attempts, retries included")
	var unique float64
	for _, l := range r.Lanes {
		unique = max(unique, float64(l.Unique))
	}
	if unique > 0 {
		p.Add(chart.HLine{Y: unique, Style: chart.LineStyle(chart.ColDropped, 1.2, true)})
	}
	s, err := plotter.NewScatter(pts)
	if err == nil {
		s.GlyphStyle.Color = chart.ColRefused
		s.GlyphStyle.Radius = vg.Points(4)
		s.GlyphStyle.Shape = draw.CircleGlyph{}
		p.Add(s)
	}
	var names []string
	for _, l := range r.Lanes {
		names = append(names, l.Title())
	}
	p.Add(pointLabels{pts: pts, names: names})
	// After the plotters: Add widens the axes to each one's data range.
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = workRange(pts, unique)
	return &chart.Figure{Name: "work", Title: "Total work against completion time",
		Caption: "Each dot is a lane: how many attempts its clients made and when the last request was done. Lower and further left is better; " +
			"the dashed line is the work with no retry at all.",
		Legend: []chart.LegendEntry{{Label: "lane", Colour: chart.ColRefused},
			{Label: fmt.Sprintf("unique requests (%d)", int64(unique)), Colour: chart.ColDropped, Line: true, Dashed: true}},
		Width: 11 * vg.Inch, Height: 5 * vg.Inch, Body: chart.Single(p)}
}

// workRange is the work plot's axes: around the points and the unique line,
// not from zero, so lanes that finished within a few milliseconds of each
// other (the demo's all end near 9.9s) spread over the plot instead of
// crowding one edge of an axis drawn from 0. Room is left on the right for the
// labels.
func workRange(pts plotter.XYs, unique float64) (xmin, xmax, ymin, ymax float64) {
	xmin, xmax = math.Inf(1), math.Inf(-1)
	ymin, ymax = unique, unique
	for _, pt := range pts {
		xmin, xmax = min(xmin, pt.X), max(xmax, pt.X)
		ymin, ymax = min(ymin, pt.Y), max(ymax, pt.Y)
	}
	if len(pts) == 0 {
		return 0, 1, 0, max(unique, 1) * 1.15
	}
	xpad := max((xmax-xmin)*0.15, xmax*0.02, 0.05)
	ypad := max((ymax-ymin)*0.15, ymax*0.02, 1)
	return max(0, xmin-xpad), xmax + 2*xpad, max(0, ymin-ypad), ymax + ypad
}

// pointLabels names scatter points. Points that coincide share one label
// ("leaky bucket and AIMD concurrency"), so no lane hides behind another
// unnamed; a label pushed away from its dot to avoid another gets a thin
// leader line back to it.
type pointLabels struct {
	pts   plotter.XYs
	names []string
}

// merged groups the points that coincide, naming each group once, in order.
func (pl pointLabels) merged() (plotter.XYs, []string) {
	var pts plotter.XYs
	var groups [][]string
	for i, pt := range pl.pts {
		j := slices.Index(pts, pt)
		if j < 0 {
			pts = append(pts, pt)
			groups = append(groups, nil)
			j = len(pts) - 1
		}
		groups[j] = append(groups[j], pl.names[i])
	}
	names := make([]string, len(groups))
	for i, g := range groups {
		names[i] = list(g)
	}
	return pts, names
}

func (pl pointLabels) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	sty := chart.TextStyle(10)
	sty.XAlign, sty.YAlign = draw.XLeft, draw.YCenter
	h := sty.Height("M")
	pts, names := pl.merged()
	// Highest first; a label that would overlap one already placed moves down.
	order := make([]int, len(pts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return pts[order[a]].Y > pts[order[b]].Y })
	var placed []vg.Rectangle
	for _, i := range order {
		w := sty.Width(names[i])
		x := tx(pts[i].X) + vg.Points(6)
		lead := x - vg.Points(5) // where a leader line leaves the dot
		if x+w > c.Max.X {       // no room on the right: the label goes left of its dot
			x = tx(pts[i].X) - vg.Points(6) - w
			lead = tx(pts[i].X) - vg.Points(1)
		}
		dotY := ty(pts[i].Y)
		y := dotY
		for {
			box := vg.Rectangle{Min: vg.Point{X: x, Y: y - h/2}, Max: vg.Point{X: x + w, Y: y + h/2}}
			clash := false
			for _, b := range placed {
				if box.Min.X < b.Max.X && b.Min.X < box.Max.X && box.Min.Y < b.Max.Y && b.Min.Y < box.Max.Y {
					clash = true
					break
				}
			}
			if !clash {
				placed = append(placed, box)
				break
			}
			y -= h
		}
		if dotY-y > h/2 {
			end := x - vg.Points(1)
			if lead > x {
				end = x + w + vg.Points(1)
			}
			c.StrokeLine2(chart.LineStyle(chart.ColDropped, 0.6, false), lead, dotY, end, y)
		}
		c.FillText(sty, vg.Point{X: x, Y: y}, names[i])
	}
}

// latencyBins is how many bins the latency panels draw across.
const latencyBins = 200

// latencyPoints gives the mean and longest backend latency (ms) of the requests
// completed in each of n bins (n divides TimelineColumns), skipping empty bins;
// x is each bin's middle in seconds.
func latencyPoints(tl *Timeline, lane int, n int) (mean, longest plotter.XYs) {
	if int(lane) >= len(tl.lanes) || !tl.lanes[lane].seen {
		return nil, nil
	}
	l := &tl.lanes[lane]
	per := TimelineColumns / n
	w := tl.ColumnWidth().Seconds()
	for i := 0; i < n; i++ {
		var sum, most time.Duration
		var count int64
		for j := i * per; j < (i+1)*per; j++ {
			c, _ := l.cols.Held(int64(j))
			sum += c.latencySum
			count += c.latencyN
			most = max(most, c.latencyMax)
		}
		if count == 0 {
			continue
		}
		x := (float64(i) + 0.5) * float64(per) * w
		mean = append(mean, plotter.XY{X: x, Y: ms(sum / time.Duration(count))})
		longest = append(longest, plotter.XY{X: x, Y: ms(most)})
	}
	return mean, longest
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// LatencyFigure shows, lane by lane, the backend latency of the requests as they
// completed: the mean and the longest in each bin.
func LatencyFigure(r sim.Result, tl *Timeline) *chart.Figure {
	means := make([]plotter.XYs, len(r.Lanes))
	longs := make([]plotter.XYs, len(r.Lanes))
	var top float64
	for i := range r.Lanes {
		means[i], longs[i] = latencyPoints(tl, i, latencyBins)
		for _, pt := range longs[i] {
			top = max(top, pt.Y)
		}
	}
	xEnd := math.Max(end(r), tl.Last().Seconds())
	var panels []*plot.Plot
	for i, l := range r.Lanes {
		p := chart.NewPlot(l.Title(), "virtual time (s)", "latency (ms)")
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, xEnd, 0, max(top*1.08, 1)
		for _, s := range []struct {
			pts plotter.XYs
			clr color.Color
		}{{longs[i], chart.ColDelayed}, {means[i], chart.ColAdmitted}} {
			if len(s.pts) == 0 {
				continue
			}
			if ln, err := plotter.NewLine(s.pts); err == nil {
				ln.LineStyle = chart.LineStyle(s.clr, 1.4, false)
				p.Add(ln)
			}
		}
		panels = append(panels, p)
	}
	return &chart.Figure{Name: "latency", Title: "Backend latency (queueing plus service), lane by lane",
		Caption: fmt.Sprintf("Requests as they completed, in %s bins. A limiter that sheds early keeps the latency down; one that admits into a slow backend builds a queue.",
			FormatDuration(time.Duration(float64(tl.ColumnWidth())*TimelineColumns/latencyBins))),
		Legend: []chart.LegendEntry{{Label: "mean latency", Colour: chart.ColAdmitted, Line: true}, {Label: "longest latency", Colour: chart.ColDelayed, Line: true}},
		Width:  11 * vg.Inch, Height: vg.Length(0.9+2.3*float64((len(panels)+3)/4)) * vg.Inch, Body: chart.Grid(panels, min(4, max(len(panels), 1)))}
}

// inFlightPoints is the most requests in the backend in each series bucket.
func inFlightPoints(series []sim.Point) plotter.XYs {
	out := make(plotter.XYs, len(series))
	for i, p := range series {
		out[i] = plotter.XY{X: p.Start.Seconds(), Y: float64(p.InFlight)}
	}
	return out
}

// InFlightFigure shows, lane by lane, the most requests in the backend over time.
func InFlightFigure(r sim.Result) *chart.Figure {
	panels := inFlightPanels(r)
	return &chart.Figure{Name: "inflight", Title: "Requests in the backend (queued or being served), lane by lane",
		Caption: fmt.Sprintf("The most in the backend in each %s bucket.", FormatDuration(r.Bucket)),
		Legend:  []chart.LegendEntry{{Label: "most in flight", Colour: chart.ColShed, Line: true}},
		Width:   11 * vg.Inch, Height: vg.Length(0.9+2.3*float64((len(panels)+3)/4)) * vg.Inch, Body: chart.Grid(panels, min(4, max(len(panels), 1)))}
}

// inFlightPanels are InFlightFigure's panels, one a lane, on one scale: up
// to the most in flight of any lane, plus 8% (at least 1).
func inFlightPanels(r sim.Result) []*plot.Plot {
	var top float64
	lines := make([]plotter.XYs, len(r.Lanes))
	for i, l := range r.Lanes {
		lines[i] = inFlightPoints(l.Series)
		for _, pt := range lines[i] {
			top = max(top, pt.Y)
		}
	}
	var panels []*plot.Plot
	for i, l := range r.Lanes {
		p := chart.NewPlot(l.Title(), "virtual time (s)", "in flight")
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, end(r), 0, max(top*1.08, 1)
		if ln, err := plotter.NewLine(lines[i]); err == nil {
			ln.LineStyle = chart.LineStyle(chart.ColShed, 1.4, false)
			ln.StepStyle = plotter.PostStep
			p.Add(ln)
		}
		panels = append(panels, p)
	}
	return panels
}

// classShares is, per class (outer) and lane (inner), the percentage of the
// class's unique requests that succeeded (0 for a class without requests).
func classShares(r sim.Result) (names []string, shares []plotter.Values) {
	names = classNames(r)
	shares = make([]plotter.Values, len(names))
	for ci := range names {
		for _, l := range r.Lanes {
			v := 0.0
			if ci < len(l.Classes) && l.Classes[ci].Unique > 0 {
				c := l.Classes[ci]
				v = 100 * float64(c.Succeeded) / float64(c.Unique)
			}
			shares[ci] = append(shares[ci], v)
		}
	}
	return names, shares
}

// ClassFigure draws, per lane, the share of each client class's requests that
// succeeded: whether the innocent pay for the abuser.
func ClassFigure(r sim.Result) *chart.Figure {
	names, shares := classShares(r)
	p := chart.NewPlot("", "", "requests that succeeded (%)")
	p.Y.Min, p.Y.Max = 0, 110
	w := vg.Points(min(60/float64(len(names)), 22))
	var legend []chart.LegendEntry
	for ci, name := range names {
		bars, err := plotter.NewBarChart(shares[ci], w)
		if err != nil {
			continue
		}
		bars.LineStyle.Width = 0
		bars.Color = chart.SeriesColours[ci%len(chart.SeriesColours)]
		bars.Offset = w * (vg.Length(ci) - vg.Length(len(names)-1)/2)
		p.Add(bars)
		legend = append(legend, chart.LegendEntry{Label: name, Colour: bars.Color})
	}
	var labels []string
	for _, l := range r.Lanes {
		labels = append(labels, l.Title())
	}
	p.NominalX(labels...)
	p.X.Tick.Label.Rotation = 0.35
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	return &chart.Figure{Name: "classes", Title: "Outcome per client class",
		Caption: "For each lane, the share of each class's requests that eventually succeeded. Even bars mean the limit treats classes alike; " +
			"a low bar for the innocent class means it pays for another's traffic.",
		Legend: legend, Width: 11 * vg.Inch, Height: 4.6 * vg.Inch, Body: chart.Single(p)}
}
