package tui

import (
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Slice k covers [k·w, (k+1)·w): an autoscaler step is marked in the slice it
// falls in, its start included and its end not; an outage [From, To) shades
// every slice it overlaps and no slice that only touches it; a step's mark
// wins over the outage's in a slice holding both.
func TestTopologyTickEdges(t *testing.T) {
	const w = time.Second
	topo := &sim.Topology{
		Replicas: []sim.ReplicaStep{{Count: 1}, {At: 2 * w, Count: 4}, {At: 6*w + w/2, Count: 2}},
		Store:    sim.Store{Outages: []sim.Outage{{From: 3 * w, To: 4 * w}, {From: 6 * w, To: 7 * w}}},
	}
	for _, tc := range []struct {
		k    int64
		want rune
	}{
		{-1, '-'}, {0, '-'}, {1, '-'}, {2, glyphReplicas}, {3, glyphStoreDown}, {4, '-'}, {5, '-'}, {6, glyphReplicas}, {7, '-'},
	} {
		if got := topologyTick(topo, tc.k, w, '-'); got != tc.want {
			t.Errorf("topologyTick(slice %d of %v) = %q, want %q", tc.k, w, got, tc.want)
		}
	}
	if got := topologyTick(nil, 2, w, '-'); got != '-' {
		t.Errorf("no topology: %q, want the plain tick", got)
	}
	// A step at 0 (the fleet's start) is no change: not marked.
	if got := topologyTick(&sim.Topology{Replicas: []sim.ReplicaStep{{Count: 3}}}, 0, w, '-'); got != '-' {
		t.Errorf("one replica step at 0: slice 0 %q, want the plain tick", got)
	}
}

// The legend names the outage glyph only with an outage, the autoscaler's only
// with a second replica step.
func TestTopologyLegendEdges(t *testing.T) {
	for _, tc := range []struct {
		topo sim.Topology
		want []string
	}{
		{sim.Topology{Replicas: []sim.ReplicaStep{{Count: 4}}}, nil},
		{sim.Topology{Replicas: []sim.ReplicaStep{{Count: 4}, {At: 1, Count: 5}}}, []string{"r replicas change"}},
		{sim.Topology{Replicas: []sim.ReplicaStep{{Count: 4}}, Store: sim.Store{Outages: []sim.Outage{{From: 1, To: 2}}}}, []string{"░ store down"}},
	} {
		if got := topologyLegend(&tc.topo); !slices.Equal(got, tc.want) {
			t.Errorf("topologyLegend(%+v) = %q, want %q", tc.topo, got, tc.want)
		}
	}
}
