package tui

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Axis glyphs of a topology: the store down, and an autoscaler step.
const (
	glyphStoreDown = '░'
	glyphReplicas  = 'r'
)

// markTopology marks on the axis ticks (the slices from on, each w wide) the
// slices in which the store was down and those in which the fleet changed size.
func markTopology(ticks []rune, t *sim.Topology, w time.Duration, from int64) {
	if t == nil {
		return
	}
	for j := range ticks {
		k := from + int64(j)
		if k < 0 {
			continue
		}
		for _, o := range t.Store.Outages {
			if time.Duration(k)*w < o.To && time.Duration(k+1)*w > o.From {
				ticks[j] = glyphStoreDown
			}
		}
	}
	for _, st := range t.Replicas[1:] {
		if j := int64(st.At/w) - from; j >= 0 && j < int64(len(ticks)) {
			ticks[j] = glyphReplicas
		}
	}
}

// fleetInfo is the info line's part on the fleet at now: " · 4 replicas", and
// " · store DOWN" during an outage; "" without a topology.
func fleetInfo(t *sim.Topology, now time.Duration) string {
	if t == nil {
		return ""
	}
	n := t.Replicas[0].Count
	for _, st := range t.Replicas[1:] {
		if st.At <= now {
			n = st.Count
		}
	}
	s := fmt.Sprintf(" · %d replicas", n)
	if n == 1 {
		s = " · 1 replica"
	}
	for _, o := range t.Store.Outages {
		if o.From <= now && now < o.To {
			s += " · store DOWN"
		}
	}
	return s
}

// topologyLegend names the topology's axis glyphs that t can show.
func topologyLegend(t *sim.Topology) []string {
	var out []string
	if len(t.Store.Outages) > 0 {
		out = append(out, string(glyphStoreDown)+" store down")
	}
	if len(t.Replicas) > 1 {
		out = append(out, string(glyphReplicas)+" replicas change")
	}
	return out
}
