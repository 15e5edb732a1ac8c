package sim

import (
	"context"
	"testing"
)

// A synced limit syncs every SyncInterval up to and including the run's end:
// an interval dividing the run gives run/interval syncs, each a call from
// every replica.
func TestSyncDueAtEndIsMade_s5(t *testing.T) {
	probe, err := New(hotKey(6, []LaneKind{LaneTokenBucket}), Options{})
	if err != nil {
		t.Fatal(err)
	}
	end := probe.End()
	const syncs, reps = 4, 2
	cfg := withTopology(hotKey(6, []LaneKind{LaneTokenBucket}), Topology{Replicas: replicas(reps)},
		func(l *Limit) { l.State, l.SyncInterval = StateSynced, end/syncs })
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s.End() != end {
		t.Fatalf("End() = %v with a topology, want %v", s.End(), end)
	}
	res, err := s.RunToEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Lanes[0].Topology.StoreCalls, int64(syncs*reps); got != want {
		t.Errorf("store calls = %d, want %d (%d syncs at %v, …, %v, the last at the end, × %d replicas)",
			got, want, syncs, end/syncs, end, reps)
	}
}
