package report

import (
	"fmt"
	"time"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/sim"
)

// dotted is the dashes of a dotted line: the refused writes (OOM).
var dotted = []vg.Length{vg.Points(1.5), vg.Points(2)}

// storeSeriesLane is the first lane of r with a store over time (some
// shard's series), or -1.
func storeSeriesLane(r sim.Result) int {
	for i, l := range r.Lanes {
		if l.Topology != nil && len(l.Topology.Shards) > 0 && len(l.Topology.Shards[0].Series) > 0 {
			return i
		}
	}
	return -1
}

// stepLine is a shard's figure v per bucket as steps: each bucket drawn flat
// from its start to its end, so the last one reaches the end of the axis.
func stepLine(pts []sim.ShardPoint, bucket time.Duration, v func(sim.ShardPoint) float64) plotter.XYs {
	xy := make(plotter.XYs, 0, 2*len(pts))
	for _, p := range pts {
		y := v(p)
		xy = append(xy, plotter.XY{X: p.Start.Seconds(), Y: y}, plotter.XY{X: (p.Start + bucket).Seconds(), Y: y})
	}
	return xy
}

// storeMetric is one panel of the store figure: a line per shard and style.
type storeMetric struct {
	title, unit string
	lines       []storeLine
}

// storeLine is one figure of a shard point drawn in a style.
type storeLine struct {
	label  string
	dashes []vg.Length
	value  func(sim.ShardPoint) float64
}

// StoreSeriesFigure draws the store of the first lane with one over time,
// each shard a colour: its calls per second, its latency (mean and p99),
// the memory it held against maxmemory, and its failed calls per second by
// kind. Nil without a real store (sim.Store.Real) that some limit calls.
func StoreSeriesFigure(r sim.Result, topo *sim.Topology) *chart.Figure {
	li := storeSeriesLane(r)
	if li < 0 || topo == nil || r.Bucket <= 0 {
		return nil
	}
	lane := r.Lanes[li]
	panels, metrics := storeSeriesPanels(r, lane, topo)
	return &chart.Figure{Name: "store", Title: "The store over time, shard by shard (" + lane.Title() + ")",
		Caption: storeSeriesCaption(r, li), Legend: storeSeriesLegend(lane, metrics),
		Width: 11 * vg.Inch, Height: 6.4 * vg.Inch, Body: chart.Grid(panels, 2)}
}

// storeSeriesPanels are the store figure's panels of lane, in the order the
// grid draws them, and the metrics they draw.
func storeSeriesPanels(r sim.Result, lane sim.LaneResult, topo *sim.Topology) ([]*plot.Plot, []storeMetric) {
	per := r.Bucket.Seconds()
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	dashed := []vg.Length{vg.Points(5), vg.Points(3)}
	metrics := []storeMetric{
		{"calls", "per second", []storeLine{{"", nil, func(p sim.ShardPoint) float64 { return float64(p.Calls) / per }}}},
		{"latency", "ms", []storeLine{
			{"mean latency", nil, func(p sim.ShardPoint) float64 { return ms(p.MeanLatency) }},
			{"p99 latency", dashed, func(p sim.ShardPoint) float64 { return ms(p.P99Latency) }}}},
		{"memory held", "bytes", []storeLine{{"", nil, func(p sim.ShardPoint) float64 { return float64(p.Memory) }}}},
		{"failed calls", "per second", []storeLine{
			{"timed out", nil, func(p sim.ShardPoint) float64 { return float64(p.TimedOut) / per }},
			{"refused (down, queue full)", dashed, func(p sim.ShardPoint) float64 { return float64(p.Refused) / per }},
			{"write refused (OOM)", dotted, func(p sim.ShardPoint) float64 { return float64(p.RefusedWrites) / per }}}},
	}
	xEnd := end(r)
	var panels []*plot.Plot
	for _, m := range metrics {
		p := chart.NewPlot(m.title, "virtual time (s)", m.unit)
		p.Add(topologyMarks{topo})
		if m.title == "memory held" && topo.Store.MaxMemory > 0 {
			p.Add(chart.HLine{Y: float64(topo.Store.MaxMemory), Style: chart.LineStyle(chart.ColLimit, 1.2, true), Label: "maxmemory"})
		}
		top := 0.0
		for s, sh := range lane.Topology.Shards {
			for _, sl := range m.lines {
				xy := stepLine(sh.Series, r.Bucket, sl.value)
				ln, err := plotter.NewLine(xy)
				if err != nil {
					continue
				}
				for _, pt := range xy {
					top = max(top, pt.Y)
				}
				ln.LineStyle = chart.LineStyle(shardColour(s), 1.3, false)
				ln.LineStyle.Dashes = sl.dashes
				p.Add(ln)
			}
		}
		if m.title == "memory held" {
			top = max(top, float64(topo.Store.MaxMemory))
		}
		// Set after the lines, which widen the axes to their data: room above the
		// highest step, which would hide under the panel's top.
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, xEnd, 0, max(top*1.1, 1)
		panels = append(panels, p)
	}
	return panels, metrics
}

// storeSeriesLegend names each shard's colour and the line styles.
func storeSeriesLegend(lane sim.LaneResult, metrics []storeMetric) []chart.LegendEntry {
	var legend []chart.LegendEntry
	n := len(lane.Topology.Shards)
	for s := range n {
		label := fmt.Sprintf("shard %d", s)
		if n == 1 {
			label = "the store (one shard)"
		}
		legend = append(legend, chart.LegendEntry{Label: label, Colour: shardColour(s)})
	}
	for _, m := range metrics {
		for _, sl := range m.lines {
			if sl.label != "" {
				legend = append(legend, chart.LegendEntry{Label: sl.label, Colour: colFailed, Line: true, Dashes: sl.dashes})
			}
		}
	}
	return legend
}

// storeSeriesCaption says how to read the figure, and which lane it shows.
func storeSeriesCaption(r sim.Result, li int) string {
	s := fmt.Sprintf("The store of lane %s, in buckets of %s by the time each call was sent: the calls each shard took per second; "+
		"the mean (solid) and p99 (dashed) latency of its calls served or timed out (round trips, wait and service); "+
		"the bytes of limiter keys it held (the most after a write in the bucket); and its failed calls per second: "+
		"timed out (solid), refused at once (dashed: down, or its queue full), a write refused for memory (dotted).",
		r.Lanes[li].Title(), FormatDuration(r.Bucket))
	others := 0
	for i := li + 1; i < len(r.Lanes); i++ {
		if storeSeriesLane(sim.Result{Lanes: r.Lanes[i : i+1]}) == 0 {
			others++
		}
	}
	if after := callsAfter(r.Lanes[li], endAt(r)); after > 0 {
		s += fmt.Sprintf(" The axis ends with the lanes' series, at %s; the %d calls after it (health probes through the drain) are in results.json.", FormatDuration(endAt(r)), after)
	}
	switch {
	case others == 1:
		s += " The other lane's store over time is in results.json (topology.shards[].series)."
	case others > 1:
		s += fmt.Sprintf(" The other %d lanes' stores over time are in results.json (topology.shards[].series).", others)
	}
	return s
}

// callsAfter counts lane's store calls in buckets starting at or after end.
func callsAfter(lane sim.LaneResult, end time.Duration) int64 {
	var n int64
	for _, sh := range lane.Topology.Shards {
		for _, p := range sh.Series {
			if p.Start >= end {
				n += p.Calls
			}
		}
	}
	return n
}
