package sim

import (
	"testing"
	"time"
)

// What phases leave, by hand: shard 1 failing (shard 2 failed and answered
// again), replica 0 out and back, replica 3 out, its breaker on shard 1 open
// and replica 2's half-open (replica 1's closed again), and none left in the
// rotation until replica 0 came back; said in words.
func TestFleetStateOfPhases(t *testing.T) {
	s := time.Second
	ps := []Phase{
		{At: 1 * s, Kind: PhaseStoreTimeouts, Replica: -1, Shard: 1},
		{At: 1 * s, Kind: PhaseStoreRefusing, Replica: -1, Shard: 2},
		{At: 2 * s, Kind: PhaseBreakerOpen, Replica: 3, Shard: 1},
		{At: 2 * s, Kind: PhaseBreakerOpen, Replica: 1, Shard: 1},
		{At: 2 * s, Kind: PhaseBreakerOpen, Replica: 2, Shard: 1},
		{At: 3 * s, Kind: PhaseReplicaOut, Replica: 0, Shard: -1},
		{At: 3 * s, Kind: PhaseReplicaOut, Replica: 3, Shard: -1},
		{At: 3 * s, Kind: PhaseNoHealthyReplica, Replica: -1, Shard: -1},
		{At: 4 * s, Kind: PhaseStoreAnswering, Replica: -1, Shard: 2},
		{At: 5 * s, Kind: PhaseBreakerHalfOpen, Replica: 2, Shard: 1},
		{At: 5 * s, Kind: PhaseBreakerHalfOpen, Replica: 1, Shard: 1},
		{At: 6 * s, Kind: PhaseBreakerClosed, Replica: 1, Shard: 1},
	}
	want := FleetState{StoreFailing: 1, Sharded: true, Out: 2, NoHealthy: true, BreakersOpen: 1, BreakersHalfOpen: 1}
	if got := FleetStateOf(ps); got != want {
		t.Errorf("FleetStateOf = %+v, want %+v", got, want)
	}
	if got, w := want.Words(), "1 shard failing, 2 replicas out, no healthy replica, 1 breaker open, 1 breaker half-open"; got != w {
		t.Errorf("Words() = %q, want %q", got, w)
	}
	ps = append(ps, Phase{At: 7 * s, Kind: PhaseReplicaIn, Replica: 0, Shard: -1}, Phase{At: 8 * s, Kind: PhaseStoreAnswering, Replica: -1, Shard: 1})
	want = FleetState{Out: 1, BreakersOpen: 1, BreakersHalfOpen: 1}
	if got := FleetStateOf(ps); got != want {
		t.Errorf("after replica 0 is back and shard 1 answers: %+v, want %+v", got, want)
	}
	if got := (FleetState{}).Words(); got != "all well" {
		t.Errorf("no phase: %q", got)
	}
	if got := (FleetState{StoreFailing: 1}).Words(); got != "the store failing" {
		t.Errorf("one store failing: %q", got)
	}
	if got := (Phase{Kind: PhaseBreakerOpen, Replica: 2, Shard: 1}).Words(); got != "breaker open on replica 2, shard 1" {
		t.Errorf("a breaker's phase: %q", got)
	}
}
