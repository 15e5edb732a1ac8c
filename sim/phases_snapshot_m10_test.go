package sim

import (
	"slices"
	"testing"
	"time"
)

// Simulation.Phases is, at any instant, the lane's phases so far in time
// order, a copy (changing it changes nothing), empty but not nil for a fleet
// with none yet, nil for no lane; at the end it is the result's phases.
func TestSimulationPhasesSoFar(t *testing.T) {
	cfg := outageWorld(FailOpen)
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{-1, len(cfg.Lanes)} {
		if ps := s.Phases(i); ps != nil {
			t.Errorf("Phases(%d) = %v, want nil", i, ps)
		}
	}
	if err := s.RunUntil(time.Second); err != nil {
		t.Fatal(err)
	}
	if ps := s.Phases(0); ps == nil || len(ps) != 0 {
		t.Errorf("Phases(0) before the outage = %#v, want empty, not nil", ps)
	}
	if err := s.RunUntil(s.End()); err != nil {
		t.Fatal(err)
	}
	res := s.Result()
	for i := range cfg.Lanes {
		ps := s.Phases(i)
		if len(ps) == 0 {
			t.Fatalf("lane %d: no phases through an outage", i)
		}
		if !slices.IsSortedFunc(ps, func(a, b Phase) int { return int(a.At - b.At) }) {
			t.Errorf("lane %d: phases out of time order: %v", i, ps)
		}
		want := slices.Clone(res.Lanes[i].Topology.Phases)
		slices.SortStableFunc(want, func(a, b Phase) int { return int(a.At - b.At) })
		if !slices.Equal(ps, want) {
			t.Errorf("lane %d: Phases = %v, the result's %v", i, ps, want)
		}
		ps[0].Kind = PhaseKind(99)
		if again := s.Phases(i); again[0].Kind == PhaseKind(99) {
			t.Errorf("lane %d: Phases hands out the lane's own slice", i)
		}
	}
}
