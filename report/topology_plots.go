package report

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/sim"
)

// colOutage shades the intervals in which the store was down: grey, see-through,
// under the ticks.
var colOutage = color.NRGBA{0x99, 0x99, 0x99, 0x48}

// replicaDashes are the dashes of an autoscaler step's line: dotted, apart from a rule push's.
var replicaDashes = []vg.Length{vg.Points(1), vg.Points(2)}

// drawOutages shades each store outage across the plot's height, from y = top
// down, with "store down" written at its top left.
func drawOutages(c draw.Canvas, p *plot.Plot, topo *sim.Topology, top float64) {
	if topo == nil {
		return
	}
	tx, _ := p.Transforms(&c)
	for _, o := range storeDownSpans(topo) {
		a, b := max(tx(o.From.Seconds()), c.Min.X), min(tx(o.To.Seconds()), c.Max.X)
		if b <= a {
			continue
		}
		c.FillPolygon(colOutage, []vg.Point{{X: a, Y: c.Min.Y}, {X: b, Y: c.Min.Y}, {X: b, Y: c.Max.Y}, {X: a, Y: c.Max.Y}})
		label, text := p.X.Tick.Label, "store down"
		label.XAlign, label.YAlign = draw.XLeft, draw.YBottom
		at := vg.Point{X: a + vg.Points(2), Y: c.Min.Y + vg.Points(2)}
		w, h := label.Width(text), label.Height(text)
		c.FillPolygon(color.NRGBA{0xff, 0xff, 0xff, 0xd8}, []vg.Point{{X: at.X - 1, Y: at.Y - 1}, {X: at.X + w + 2, Y: at.Y - 1},
			{X: at.X + w + 2, Y: at.Y + h + 1}, {X: at.X - 1, Y: at.Y + h + 1}})
		c.FillText(label, at, text)
	}
}

// drawReplicaSteps marks each autoscaler step with a dotted line labelled with
// the fleet's new size.
func drawReplicaSteps(c draw.Canvas, p *plot.Plot, topo *sim.Topology) {
	if topo == nil {
		return
	}
	for k, st := range topo.Replicas[1:] {
		markTime(c, p, st.At, fmt.Sprintf("replicas: %d → %d", topo.Replicas[k].Count, st.Count), replicaDashes, 1)
	}
}

// addTopologyLegend names the outages' shading and the autoscaler's lines in
// the figure's legend and caption, when there are any.
func addTopologyLegend(f *chart.Figure, topo *sim.Topology) {
	if topo == nil {
		return
	}
	if len(storeDownSpans(topo)) > 0 {
		f.Caption += " Grey bands are the store's outages, when the limits kept in it decided by their fail mode."
		f.Legend = append(f.Legend, chart.LegendEntry{Label: "store down", Colour: colOutage})
	}
	if len(topo.Replicas) > 1 {
		f.Caption += " A dotted line marks each autoscaler step, labelled with the fleet's size before and after."
		f.Legend = append(f.Legend, chart.LegendEntry{Label: "replicas change", Colour: chart.ColLimit, Line: true, Dashes: []vg.Length{vg.Points(1.5), vg.Points(2)}})
	}
}

// spanJSON is an interval of the timeline, in µs.
type spanJSON struct {
	FromUS int64 `json:"from_us"`
	ToUS   int64 `json:"to_us"`
}

// markTopology adds the store's outages and the autoscaler's steps to the timeline.
func (tj *timelineJSON) markTopology(topo *sim.Topology) {
	if topo == nil {
		return
	}
	for _, o := range storeDownSpans(topo) {
		tj.Outages = append(tj.Outages, spanJSON{us(o.From), us(o.To)})
	}
	for k, st := range topo.Replicas[1:] {
		tj.Replicas = append(tj.Replicas, ruleMarkJSON{AtUS: us(st.At), Label: fmt.Sprintf("replicas: %d → %d", topo.Replicas[k].Count, st.Count)})
	}
}

// topologyMarks shades a panel's store outages and marks its autoscaler
// steps, without labels: the legend names them.
type topologyMarks struct{ topo *sim.Topology }

func (m topologyMarks) Plot(c draw.Canvas, p *plot.Plot) {
	tx, _ := p.Transforms(&c)
	for _, o := range storeDownSpans(m.topo) {
		a, b := max(tx(o.From.Seconds()), c.Min.X), min(tx(o.To.Seconds()), c.Max.X)
		if b > a {
			c.FillPolygon(colOutage, []vg.Point{{X: a, Y: c.Min.Y}, {X: b, Y: c.Min.Y}, {X: b, Y: c.Max.Y}, {X: a, Y: c.Max.Y}})
		}
	}
	for _, st := range m.topo.Replicas[1:] {
		if x := tx(st.At.Seconds()); x >= c.Min.X && x <= c.Max.X {
			c.StrokeLine2(draw.LineStyle{Color: chart.ColLimit, Width: vg.Points(0.8), Dashes: replicaDashes}, x, c.Min.Y, x, c.Max.Y)
		}
	}
}

// replicaPeaks draws, across each lane's bar, a tick at the most its busiest
// replica admitted in one window of the first limit.
type replicaPeaks struct{ r sim.Result }

func (rp replicaPeaks) Plot(c draw.Canvas, p *plot.Plot) {
	tx, ty := p.Transforms(&c)
	half := vg.Points(19)
	for i, l := range rp.r.Lanes {
		if l.Topology == nil || len(l.Topology.Limits) == 0 {
			continue
		}
		x, y := tx(float64(i)), ty(float64(l.Topology.Limits[0].Replica.Count))
		c.StrokeLine2(draw.LineStyle{Color: chart.ColLimit, Width: vg.Points(3)}, x-half, y, x+half, y)
	}
}

// addReplicaPeaks adds the busiest replicas' ticks to the peak plot of a run
// in a topology, and returns their legend entry; nothing without a topology.
func addReplicaPeaks(p *plot.Plot, r sim.Result) []chart.LegendEntry {
	if !hasTopology(r) {
		return nil
	}
	p.Add(replicaPeaks{r})
	return []chart.LegendEntry{{Label: "busiest replica", Colour: chart.ColLimit, Line: true}}
}
