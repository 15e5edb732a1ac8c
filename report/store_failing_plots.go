package report

import (
	"image/color"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/sim"
)

// colStoreFailing shades, in a lane's row, the stretches of failed store
// calls (timeouts, refusals) its phases name: bluish purple, see-through.
var colStoreFailing = color.NRGBA{0x6a, 0x3d, 0x9a, 0x30}

// failingSpans are lane l's stretches of failed store calls, from the phases:
// each from the store's (a shard's) first failure of a stretch to its
// store_answering, or to end if it never answered again; overlapping
// stretches of several shards are merged.
func failingSpans(l sim.LaneResult, end sim.Span) []sim.Span {
	if l.Topology == nil {
		return nil
	}
	open := map[int]bool{}
	from := map[int]time.Duration{}
	var spans []sim.Span
	for _, p := range l.Topology.Phases {
		switch p.Kind {
		case sim.PhaseStoreTimeouts, sim.PhaseStoreRefusing:
			if !open[p.Shard] {
				open[p.Shard], from[p.Shard] = true, p.At
			}
		case sim.PhaseStoreAnswering:
			if open[p.Shard] {
				open[p.Shard] = false
				spans = addSpan(spans, sim.Span{From: from[p.Shard], To: p.At})
			}
		}
	}
	for shard, o := range open {
		if o {
			spans = addSpan(spans, sim.Span{From: from[shard], To: end.To})
		}
	}
	return spans
}

// addSpan adds s to spans, in order of their starts, merging it with those it overlaps.
func addSpan(spans []sim.Span, s sim.Span) []sim.Span {
	out := make([]sim.Span, 0, len(spans)+1)
	placed := false
	for _, t := range spans {
		switch {
		case t.To < s.From:
			out = append(out, t)
		case s.To < t.From:
			if !placed {
				out, placed = append(out, s), true
			}
			out = append(out, t)
		default:
			s = sim.Span{From: min(s.From, t.From), To: max(s.To, t.To)}
		}
	}
	if !placed {
		out = append(out, s)
	}
	return out
}

// anyFailing reports whether some lane of r had a stretch of failed store calls.
func anyFailing(r sim.Result) bool {
	for _, l := range r.Lanes {
		if len(failingSpans(l, runSpan(r))) > 0 {
			return true
		}
	}
	return false
}

// runSpan is the run's time: its duration, or its lanes' last series bucket's
// end when they ran on (a drain).
func runSpan(r sim.Result) sim.Span {
	end := r.Duration
	for _, l := range r.Lanes {
		if n := len(l.Series); n > 0 {
			end = max(end, l.Series[n-1].Start+r.Bucket)
		}
	}
	return sim.Span{To: end}
}

// drawBands shades lane i's row (at y) over its worst window: the stretches
// of failed store calls, then the times with no replica in the rotation.
func drawBands(c draw.Canvas, p *plot.Plot, r sim.Result, i int, y float64) {
	tx, ty := p.Transforms(&c)
	fill := func(clr color.Color, s sim.Span) {
		a, b := max(tx(s.From.Seconds()), c.Min.X), min(tx(s.To.Seconds()), c.Max.X)
		if b > a {
			c.FillPolygon(clr, []vg.Point{{X: a, Y: ty(y - 0.5)}, {X: b, Y: ty(y - 0.5)}, {X: b, Y: ty(y + 0.5)}, {X: a, Y: ty(y + 0.5)}})
		}
	}
	for _, s := range failingSpans(r.Lanes[i], runSpan(r)) {
		fill(colStoreFailing, s)
	}
	for _, s := range downSpans(r.Lanes[i]) {
		fill(colNoHealthy, s)
	}
}

// addFailingLegend names the store-failing shading in the timeline's legend
// and caption, when a lane has any.
func addFailingLegend(f *chart.Figure, r sim.Result) {
	if !anyFailing(r) {
		return
	}
	f.Caption += " A purple band in a lane's row is a stretch of failed store calls (timeouts, refusals: a saturated or unreachable store), from its first failure until the store answered every call for a second."
	f.Legend = append(f.Legend, chart.LegendEntry{Label: "store failing", Colour: colStoreFailing})
}

// markFailing gives each lane of the timeline its stretches of failed store calls.
func (tj *timelineJSON) markFailing(r sim.Result) {
	for i, l := range r.Lanes {
		if i >= len(tj.Lanes) {
			return
		}
		for _, s := range failingSpans(l, runSpan(r)) {
			tj.Lanes[i].Failing = append(tj.Lanes[i].Failing, spanJSON{us(s.From), us(s.To)})
			tj.StoreFailing = true
		}
	}
}
