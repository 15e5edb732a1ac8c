package sim

import (
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// leaseWorld is one client sending rate per second for 10s to a shared fixed
// window of 10 per second, leased lease at a time, on one replica.
func leaseWorld(rate, lease int64) Config {
	return Config{
		Duration: 10 * time.Second, Seed: 1, Lanes: []LaneKind{LaneFixedWindow},
		Limits: []Limit{{Name: "api", Key: KeyIP, State: StateShared,
			Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Clients: []ClientGroup{{Name: "c", Count: 1, Identity: Identity{IP: "10.0.0.{i}"},
			Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: rate, Per: time.Second}}}}},
		Topology: &Topology{Replicas: replicas(1), Store: Store{Lease: lease}},
	}
}

// By hand, 20 attempts a second (every 50ms) and leases of 4: in each window
// the attempt at 0 takes 4 and spends 1, those at 50–150ms spend the rest;
// 200ms takes 4 more (8 charged), 250–350ms spend them; 400ms gets the last
// 2, 450ms spends the last; from 500ms every attempt calls and is refused. So
// 3 + 10 = 13 calls and 7 local decisions a window, 130 and 70 in 10s, 100
// admitted and 100 leased, none expired; without leases all 200 call.
func TestLeaseCallsWhatTheLeaseImplies(t *testing.T) {
	l := mustRun(t, leaseWorld(20, 4), Options{}).Lanes[0]
	rem := l.Topology.Remedies
	if l.Topology.StoreCalls != 130 || rem.LeaseLocal != 70 || rem.LeaseTaken != 100 || rem.LeaseExpired != 0 || l.Admitted != 100 {
		t.Errorf("calls %d, local %d, leased %d, expired %d, admitted %d; want 130, 70, 100, 0, 100",
			l.Topology.StoreCalls, rem.LeaseLocal, rem.LeaseTaken, rem.LeaseExpired, l.Admitted)
	}
	none := mustRun(t, leaseWorld(20, 0), Options{}).Lanes[0]
	if none.Topology.StoreCalls != 200 || none.Admitted != 100 {
		t.Errorf("without leases: calls %d admitted %d, want 200 and 100", none.Topology.StoreCalls, none.Admitted)
	}
}

// Leftovers expire at the window's end. By hand, 5 attempts a second (every
// 200ms), leases of 4: 0 takes 4, 200–600ms spend 3, 800ms takes 4 and
// spends 1, and 3 expire at 1s. A window: 2 calls, 3 local, 8 leased, 3
// expired; in 10s 20, 30, 80 and 30 (the last 3 held at the end count too).
func TestLeaseLeftoversExpire(t *testing.T) {
	l := mustRun(t, leaseWorld(5, 4), Options{}).Lanes[0]
	rem := l.Topology.Remedies
	if l.Topology.StoreCalls != 20 || rem.LeaseLocal != 30 || rem.LeaseTaken != 80 || rem.LeaseExpired != 30 || l.Admitted != 50 {
		t.Errorf("calls %d, local %d, leased %d, expired %d, admitted %d; want 20, 30, 80, 30, 50",
			l.Topology.StoreCalls, rem.LeaseLocal, rem.LeaseTaken, rem.LeaseExpired, l.Admitted)
	}
}

// On random traffic with retries, over random replicas, leases and store
// latency, in a fixed window and a token bucket: the fleet never admits more
// in a window for one key than one exact limiter on the same attempts by more
// than replicas × lease; every unit leased is spent or expired.
func TestLeaseOvershootBoundedByReplicasTimesLease(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 3))
	var local int64
	for i := range 30 {
		cfg := randomWorld(r, []LaneKind{LaneFixedWindow, LaneTokenBucket}, true)
		for j := range cfg.Limits {
			cfg.Limits[j].State = StateShared
		}
		n, lease := 1+r.IntN(5), 1+r.Int64N(6)
		cfg.Topology = &Topology{Replicas: replicas(n), Routing: Routing(r.IntN(2)),
			Store: Store{Lease: lease, Latency: Service{Kind: ServiceExponential, Mean: time.Duration(r.IntN(3)) * time.Millisecond}}}
		res := mustRun(t, cfg, Options{})
		for _, l := range res.Lanes {
			rem := l.Topology.Remedies
			local += rem.LeaseLocal
			for _, lt := range l.Topology.Limits {
				if lt.Fleet.Count-lt.Exact.Count > int64(n)*lease {
					t.Errorf("world %d, %v, %s: fleet %d, exact %d, over %d × %d", i, l.Lane, lt.Limit, lt.Fleet.Count, lt.Exact.Count, n, lease)
				}
			}
			if rem.LeaseExpired > rem.LeaseTaken {
				t.Errorf("world %d, %v: %d expired of %d leased", i, l.Lane, rem.LeaseExpired, rem.LeaseTaken)
			}
		}
	}
	if local == 0 {
		t.Error("no decision was taken on a lease in any world")
	}
}

// The same scenario and seed give the same result, every remedy at once, on
// random traffic over random replicas with exponential round trips, timeouts
// and an outage.
func TestRemediesDeterministic(t *testing.T) {
	r := rand.New(rand.NewPCG(28, 9))
	for i := range 5 {
		cfg := randomWorld(r, []LaneKind{LaneFixedWindow, LaneTokenBucket, LaneGCRA}, true)
		for j := range cfg.Limits {
			cfg.Limits[j].State, cfg.Limits[j].OnStoreError = StateShared, FailMode(r.IntN(2))
		}
		cfg.Topology = &Topology{Replicas: replicas(1 + r.IntN(4)), Routing: RoutingRandom, Store: Store{
			Latency: Service{Kind: ServiceExponential, Mean: 2 * time.Millisecond}, Timeout: 4 * time.Millisecond,
			Outages:      []Outage{{From: time.Second, To: 2 * time.Second}},
			Breaker:      Breaker{Failures: 2, Window: time.Second, Cooldown: 300 * time.Millisecond, Probes: 2},
			RefusalCache: true, Lease: 1 + r.Int64N(4)}}
		a, b := mustRun(t, cfg, Options{}), mustRun(t, cfg, Options{})
		if !reflect.DeepEqual(a, b) {
			t.Errorf("world %d: two runs differ", i)
		}
		if rem := a.Lanes[0].Topology.Remedies; rem.BreakerOpens == 0 || rem.LeaseTaken == 0 {
			t.Errorf("world %d: a remedy did nothing: %+v", i, rem)
		}
	}
}
