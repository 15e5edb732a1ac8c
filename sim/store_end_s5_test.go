package sim

import (
	"context"
	"testing"
)

// A store answer back exactly at the run's end is still in the run: its
// attempts are decided, not left waiting (only answers after the end are).
func TestStoreReplyAtEndIsDecided_s5(t *testing.T) {
	cfg := withTopology(hotKey(6, []LaneKind{LaneTokenBucket}), Topology{Replicas: replicas(1)},
		func(l *Limit) { l.State = StateShared })
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	end := s.End()
	s.lanes[0].fleet.store = &fakeStore{answer: storeAnswer{reach: end / 2, write: end / 2, roundTrip: end}}
	res, err := s.RunToEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	l := res.Lanes[0]
	if l.Topology.Waiting != 0 || l.Admitted+l.Refused != 6 {
		t.Errorf("answers due at the end: admitted %d refused %d waiting %d, want 6 decided and 0 waiting",
			l.Admitted, l.Refused, l.Topology.Waiting)
	}

	// One nanosecond later, every attempt is still waiting when the run ends.
	if s, err = New(cfg, Options{}); err != nil {
		t.Fatal(err)
	}
	s.lanes[0].fleet.store = &fakeStore{answer: storeAnswer{reach: end / 2, write: end / 2, roundTrip: end + 1}}
	if res, err = s.RunToEnd(context.Background()); err != nil {
		t.Fatal(err)
	}
	if l := res.Lanes[0]; l.Admitted+l.Refused != 0 || l.Topology.Waiting != 6 {
		t.Errorf("answers due after the end: admitted %d refused %d waiting %d, want 0 decided and 6 waiting",
			l.Admitted, l.Refused, l.Topology.Waiting)
	}
}
