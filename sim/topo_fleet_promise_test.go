package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestRoundRobinPromise: the n-th attempt of the lane (from 0) goes to replica
// n mod count, the count being the fleet's when the attempt is routed: an
// autoscaler step changes the modulus, not the sequence.
func TestRoundRobinPromise(t *testing.T) {
	ms := time.Millisecond
	cfg := Config{
		Duration: 2 * time.Second, Seed: 1, Lanes: []LaneKind{LaneFixedWindow},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Start: 5 * ms,
			Rate: Rate{Count: 10, Per: time.Second}}}}},
		Topology: &Topology{Replicas: []ReplicaStep{{At: 0, Count: 3}, {At: time.Second, Count: 2}}},
	}
	var log traceLog
	mustRun(t, cfg, Options{Trace: &log})
	n := 0
	for _, r := range log.recs {
		if r.Event != TraceAdmit {
			continue
		}
		count := 3
		if r.At >= time.Second {
			count = 2
		}
		if want := n % count; r.Replica != want {
			t.Errorf("attempt %d at %v went to replica %d, want %d (of %d)", n, r.At, r.Replica, want, count)
		}
		n++
	}
	if n != 20 {
		t.Errorf("%d admissions traced, want 20 (10/s for 2s)", n)
	}
}

// TestHashRoutingStickyPromise: with hash routing every attempt of a client
// with the same key goes to the same replica while the fleet size holds.
func TestHashRoutingStickyPromise(t *testing.T) {
	cfg := Config{
		Duration: 2 * time.Second, Seed: 1, Lanes: []LaneKind{LaneFixedWindow},
		Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
		Clients: []ClientGroup{
			{Name: "a", Count: 6, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 10, Per: time.Second}}}},
			{Name: "b", Count: 4, Identity: Identity{User: "same"}, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 10, Per: time.Second}}}},
		},
		Topology: &Topology{Routing: RoutingHash, HashKey: KeyUser, Replicas: []ReplicaStep{{Count: 3}}},
	}
	var log traceLog
	mustRun(t, cfg, Options{Trace: &log})
	byKey := map[string]int{}
	seen := map[int]bool{}
	for _, r := range log.recs {
		if r.Event != TraceAdmit {
			continue
		}
		if r.Replica < 0 || r.Replica >= 3 {
			t.Fatalf("record %+v names replica %d of 3", r, r.Replica)
		}
		seen[r.Replica] = true
		if rep, ok := byKey[r.Key]; ok && rep != r.Replica {
			t.Errorf("key %s went to replicas %d and %d", r.Key, rep, r.Replica)
		}
		byKey[r.Key] = r.Replica
	}
	if len(byKey) != 7 {
		t.Errorf("%d keys admitted, want 7 (six own, one shared)", len(byKey))
	}
	if len(seen) < 2 {
		t.Errorf("7 keys all hashed to one replica %v; want a spread", seen)
	}
}
