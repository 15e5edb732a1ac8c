package sim

import (
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// healthWorld: two replicas, clients on /api at 10 per second from 50ms on
// (never at a probe's instant), a local limit on /api that never refuses,
// a shared limit on /health failing closed, the store down in [20s, 50s),
// probes every 5s from 0, out after 2 failures, back after 3 passes.
func healthWorld() Config {
	return Config{
		Duration: 60 * time.Second, Seed: 1, Lanes: []LaneKind{LaneTokenBucket},
		Limits: []Limit{
			{Name: "api", Key: KeyGlobal, Endpoint: "/api", Policy: algorithms.Policy{Limit: 100, Window: time.Second}},
			{Name: "health", Key: KeyGlobal, Endpoint: "/health", State: StateShared, OnStoreError: FailClosed,
				Policy: algorithms.Policy{Limit: 1000, Window: time.Second}},
		},
		Clients: []ClientGroup{{Name: "users", Count: 1, Identity: Identity{Endpoint: "/api"},
			Arrivals: []Arrival{{Kind: ArrivalConstant, Start: 50 * time.Millisecond, Rate: Rate{Count: 10, Per: time.Second}}}}},
		Topology: &Topology{Replicas: []ReplicaStep{{Count: 2}},
			Store:  Store{Outages: []Outage{{From: 20 * time.Second, To: 50 * time.Second}}},
			Health: &HealthCheck{Endpoint: "/health", Interval: 5 * time.Second, UnhealthyAfter: 2, HealthyAfter: 3}},
	}
}

// By hand: probes at 20s and 25s fail (the store refuses, the health limit
// fails closed), so both replicas leave at 25s = 20s + (2−1)×5s; the probe
// at 50s is the first to pass (the outage is over at 50s), the third pass
// at 60s = 50s + (3−1)×5s brings them back. The arrivals at 25.05s … 59.95s
// (k = 250 … 599 of 50ms + k×100ms) find no replica: 350 answered 503, the
// 250 before admitted. The run ends at 120s (drain = duration): 25 rounds of
// 2 probes, 6 rounds (20s … 45s) failing.
func TestHealthCheckTakesTheFleetOutDuringAnOutageAndBack(t *testing.T) {
	lr := mustRun(t, healthWorld(), Options{}).Lanes[0]
	h := lr.Topology.Health
	if h == nil {
		t.Fatal("no health result")
	}
	if h.Probes != 50 || h.Failed != 12 {
		t.Errorf("probes %d, failed %d, want 50 and 12", h.Probes, h.Failed)
	}
	if want := []time.Duration{35 * time.Second, 35 * time.Second}; !reflect.DeepEqual(h.Out, want) {
		t.Errorf("out %v, want %v", h.Out, want)
	}
	if h.NoHealthy != 350 || h.NoHealthyFor != 35*time.Second || h.Removals != 2 {
		t.Errorf("no healthy: %d attempts for %v, %d removals; want 350 for 35s, 2", h.NoHealthy, h.NoHealthyFor, h.Removals)
	}
	if lr.Shed != 350 || lr.Admitted != 250 || lr.Refused != 0 {
		t.Errorf("shed %d admitted %d refused %d, want 350, 250, 0", lr.Shed, lr.Admitted, lr.Refused)
	}
	type ph struct {
		at   time.Duration
		kind PhaseKind
		rep  int
	}
	want := []ph{{20 * time.Second, PhaseStoreRefusing, -1}, {20 * time.Second, PhaseFailClosed, 0},
		{25 * time.Second, PhaseReplicaOut, 0}, {25 * time.Second, PhaseReplicaOut, 1}, {25 * time.Second, PhaseNoHealthyReplica, -1},
		{50 * time.Second, PhaseStoreAnswering, -1}, {60 * time.Second, PhaseReplicaIn, 0}, {60 * time.Second, PhaseReplicaIn, 1}}
	var got []ph
	for _, p := range lr.Topology.Phases {
		got = append(got, ph{p.At, p.Kind, p.Replica})
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("phases\n%v\nwant\n%v", got, want)
	}
}
