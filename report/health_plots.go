package report

import (
	"image/color"

	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/sim"
)

// colNoHealthy shades, in a lane's row, the times no replica was in the load
// balancer's rotation: vermillion, see-through, under the ticks.
var colNoHealthy = color.NRGBA{0xd5, 0x5e, 0x00, 0x38}

// downSpans is lane l's intervals with no replica in the rotation.
func downSpans(l sim.LaneResult) []sim.Span {
	if l.Topology == nil || l.Topology.Health == nil {
		return nil
	}
	return l.Topology.Health.Down
}

// anyDown reports whether some lane of r had no replica in the rotation at some time.
func anyDown(r sim.Result) bool {
	for _, l := range r.Lanes {
		if len(downSpans(l)) > 0 {
			return true
		}
	}
	return false
}

// addHealthLegend names the no-healthy-replica shading in the timeline's
// legend and caption, when a lane has any.
func addHealthLegend(f *chart.Figure, r sim.Result) {
	if !anyDown(r) {
		return
	}
	f.Caption += " A vermillion band in a lane's row is a time with no replica in the load balancer's rotation (failed health checks): every attempt then got 503."
	f.Legend = append(f.Legend, chart.LegendEntry{Label: "no healthy replica", Colour: colNoHealthy})
}

// markHealth gives each lane of the timeline its intervals with no replica in the rotation.
func (tj *timelineJSON) markHealth(r sim.Result) {
	for i, l := range r.Lanes {
		if i >= len(tj.Lanes) {
			return
		}
		for _, s := range downSpans(l) {
			tj.Lanes[i].Down = append(tj.Lanes[i].Down, spanJSON{us(s.From), us(s.To)})
			tj.NoHealthy = true
		}
	}
}
