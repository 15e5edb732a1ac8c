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

// topologyTick is the axis tick of slice k (each w wide), tick without a
// topology: the autoscaler's mark in the slice of a step, the outage's in a
// slice that overlaps one.
func topologyTick(t *sim.Topology, k int64, w time.Duration, tick rune) rune {
	if t == nil || k < 0 {
		return tick
	}
	from, to := time.Duration(k)*w, time.Duration(k+1)*w
	for _, st := range t.Replicas[1:] {
		if st.At >= from && st.At < to {
			return glyphReplicas
		}
	}
	for _, o := range t.Store.Outages {
		if from < o.To && to > o.From {
			return glyphStoreDown
		}
	}
	return tick
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
