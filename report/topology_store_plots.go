package report

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/sim"
)

// colFailed is the failed calls' bar: near black, apart from every shard's colour.
var colFailed = color.NRGBA{0x30, 0x30, 0x30, 0xff}

// shardColour is shard s's colour: the series colours without the refusal's.
func shardColour(s int) color.Color {
	var cols []color.Color
	for _, c := range chart.SeriesColours {
		if c != chart.ColRefused {
			cols = append(cols, c)
		}
	}
	return cols[s%len(cols)]
}

// shardLoads is, per shard and lane (in lane order, lanes without a topology
// as 0), the store calls the shard took and those that failed there
// (refused, timed out, or refused a write).
func shardLoads(r sim.Result, shards int) (calls, failed [][]float64) {
	calls, failed = make([][]float64, shards), make([][]float64, shards)
	for s := range shards {
		for _, l := range r.Lanes {
			var c, f float64
			if l.Topology != nil && s < len(l.Topology.Shards) {
				sh := l.Topology.Shards[s]
				c, f = float64(sh.Calls), float64(sh.Refused+sh.TimedOut+sh.RefusedWrites)
			}
			calls[s], failed[s] = append(calls[s], c), append(failed[s], f)
		}
	}
	return calls, failed
}

// ShardFigure draws, per lane, each shard's store calls and, darker over
// them, those that failed: a hot key's shard standing out of idle ones. Nil
// unless the store has several shards.
func ShardFigure(r sim.Result, topo *sim.Topology) *chart.Figure {
	if topo == nil || topo.Store.Shards < 2 || !hasShared(r) {
		return nil
	}
	n := topo.Store.Shards
	calls, failed := shardLoads(r, n)
	p := chart.NewPlot("", "", "store calls")
	w := vg.Points(min(60/float64(n), 22))
	var legend []chart.LegendEntry
	for s := range n {
		off := w * (vg.Length(s) - vg.Length(n-1)/2)
		for k, vals := range [][]float64{calls[s], failed[s]} {
			bars, err := plotter.NewBarChart(plotter.Values(vals), w)
			if err != nil {
				continue
			}
			bars.LineStyle.Width = 0
			bars.Color = shardColour(s)
			if k == 1 {
				bars.Color = colFailed
				bars.Width = w / 2
			}
			bars.Offset = off
			p.Add(bars)
		}
		legend = append(legend, chart.LegendEntry{Label: fmt.Sprintf("shard %d", s), Colour: shardColour(s)})
	}
	legend = append(legend, chart.LegendEntry{Label: "failed there", Colour: colFailed})
	var labels []string
	for _, l := range r.Lanes {
		labels = append(labels, l.Title())
	}
	p.NominalX(labels...)
	p.X.Tick.Label.Rotation = 0.35
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	return &chart.Figure{Name: "shards", Title: "Store calls per shard, lane by lane",
		Caption: "For each lane, the calls each shard of the store took, and (narrow, dark) those that failed there: " +
			"refused at once (down, queue full), timed out, or a write refused for memory. A client's keys live on one shard, " +
			"so a hot key's shard stands out and fails while the others idle.",
		Legend: legend, Width: 11 * vg.Inch, Height: 4.6 * vg.Inch, Body: chart.Single(p)}
}
