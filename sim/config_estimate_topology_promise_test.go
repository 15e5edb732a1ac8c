package sim

import (
	"math"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestTopologyEventsPromise: none without a topology; one per autoscaler step;
// every sync of a synced limit over the run and its drain; two store events an
// attempt of a shared limit (three racy) when the store takes time, none when
// it is instantaneous; a divided local limit rebuilds every replica's table of
// every key at each later step.
func TestTopologyEventsPromise(t *testing.T) {
	s := time.Second
	steps := []ReplicaStep{{At: 0, Count: 2}, {At: s, Count: 4}, {At: 2 * s, Count: 3}}
	pol := algorithms.Policy{Limit: 10, Window: s}
	base := func(topo *Topology, limits ...Limit) Config {
		return Config{Duration: 10 * s, Drain: 2 * s, Topology: topo, Limits: limits,
			Clients: []ClientGroup{{Name: "c", Count: 5}}}
	}
	slow := Store{Latency: Service{Mean: time.Millisecond}}
	const attempts = 1000.0
	tests := []struct {
		name string
		c    Config
		want float64
	}{
		{"no topology", base(nil, Limit{State: StateShared, Policy: pol}), 0},
		{"local, fixed fleet", base(&Topology{Replicas: steps[:1]}, Limit{Policy: pol}), 1},
		{"local, three steps", base(&Topology{Replicas: steps}, Limit{Policy: pol}), 3},
		{"shared, instantaneous store", base(&Topology{Replicas: steps[:1]}, Limit{State: StateShared, Policy: pol}), 1},
		{"shared, slow store", base(&Topology{Replicas: steps[:1], Store: slow}, Limit{State: StateShared, Policy: pol}), 2*attempts + 1},
		{"shared, timeout only", base(&Topology{Replicas: steps[:1], Store: Store{Timeout: s}}, Limit{State: StateShared, Policy: pol}), 2*attempts + 1},
		{"shared, racy", base(&Topology{Replicas: steps[:1], Store: Store{Latency: slow.Latency, Racy: true}}, Limit{State: StateShared, Policy: pol}), 3*attempts + 1},
		{"shared, finite capacity only", base(&Topology{Replicas: steps[:1], Store: Store{Capacity: 1000}}, Limit{State: StateShared, Policy: pol}), 2*attempts + 1},
		{"shared, slowed by a change", base(&Topology{Replicas: steps[:1], Store: Store{Changes: []StoreChange{{At: s, Latency: slow.Latency}}}}, Limit{State: StateShared, Policy: pol}), 2*attempts + 1},
		{"shared, memory and shards only", base(&Topology{Replicas: steps[:1], Store: Store{Shards: 4, MaxMemory: 100}}, Limit{State: StateShared, Policy: pol}), 1},
		{"local, slow store", base(&Topology{Replicas: steps[:1], Store: slow}, Limit{Policy: pol}), 1},
		{"synced", base(&Topology{Replicas: steps[:1]}, Limit{State: StateSynced, SyncInterval: 500 * time.Millisecond, Policy: pol}), 24 + 1},
		{"synced, interval not dividing", base(&Topology{Replicas: steps[:1]}, Limit{State: StateSynced, SyncInterval: 5 * s, Policy: pol}), 2 + 1},
		// (3 − 1) later steps × 5 keys (the default template) × 4 replicas at most.
		{"divided local", base(&Topology{Replicas: steps}, Limit{Key: KeyUser, LocalLimit: LocalDivided, Policy: pol}), 2*5*4 + 3},
		{"divided local, global key", base(&Topology{Replicas: steps}, Limit{Key: KeyGlobal, LocalLimit: LocalDivided, Policy: pol}), 2*1*4 + 3},
		{"divided, fixed fleet", base(&Topology{Replicas: steps[:1]}, Limit{Key: KeyUser, LocalLimit: LocalDivided, Policy: pol}), 1},
		// 12s / 1s + 1 = 13 rounds of a round event and a probe to each of 2 replicas.
		{"health, local", base(&Topology{Replicas: steps[:1], Health: &HealthCheck{Interval: s}}, Limit{Policy: pol}), 13*(1+2) + 1},
		// the default interval, 10s: rounds at 0 and 10s.
		{"health, default interval", base(&Topology{Replicas: steps[:1], Health: &HealthCheck{}}, Limit{Policy: pol}), 2*(1+2) + 1},
		// each probe calls the slow store: two events more.
		{"health, shared slow store", base(&Topology{Replicas: steps[:1], Store: slow, Health: &HealthCheck{Interval: s}}, Limit{State: StateShared, Policy: pol}), 2*attempts + 13*(1+3*2) + 1},
		// the shared limit counts another endpoint: the probe does not call the store.
		{"health, shared limit elsewhere", base(&Topology{Replicas: steps[:1], Store: slow, Health: &HealthCheck{Interval: s}}, Limit{State: StateShared, Endpoint: "/login", Policy: pol}), 2*attempts + 13*(1+2) + 1},
		{"restarts", base(&Topology{Replicas: steps[:1], Store: Store{Restarts: []time.Duration{s, 2 * s}, Outages: []Outage{{From: s, To: 2 * s, Flush: true}, {From: 3 * s, To: 4 * s}}}}, Limit{Policy: pol}), 3 + 1},
	}
	for _, tt := range tests {
		if got := tt.c.topologyEvents(attempts); got != tt.want {
			t.Errorf("%s: topologyEvents = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestChainLanesPromise: concurrency limiters decide no chain; a client gate's
// server side does.
func TestChainLanesPromise(t *testing.T) {
	tests := []struct {
		lanes []LaneKind
		want  int
	}{
		{nil, 0},
		{[]LaneKind{LaneAIMD, LaneVegas}, 0},
		{[]LaneKind{LaneFixedWindow, LaneAIMD, LaneTokenBucket}, 2},
		{[]LaneKind{LaneClientThrottle}, 1},
		{[]LaneKind{LaneGCRA, LaneSlidingLog, LaneLeakyBucket, LaneSlidingWindowCounter}, 4},
	}
	for _, tt := range tests {
		c := Config{Lanes: tt.lanes}
		if got := c.chainLanes(); got != tt.want {
			t.Errorf("chainLanes(%v) = %d, want %d", tt.lanes, got, tt.want)
		}
	}
}

// TestCapacityPromise: the tightest of burst + rate×d on every key (times the
// fleet for full local limits) and the backend's queue and capacity plus what
// it serves in d.
func TestCapacityPromise(t *testing.T) {
	s := time.Second
	clients := []ClientGroup{{Name: "c", Count: 4}} // four keys by user
	tests := []struct {
		name string
		c    Config
		d    time.Duration
		want float64
	}{
		{"no limit, no backend", Config{}, s, math.Inf(1)},
		{"one global limit", Config{Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: s}}}}, 2 * s, 10 + 20},
		{"burst counts once", Config{Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: s, Burst: 3}}}}, 2 * s, 3 + 20},
		{"zero span is the burst", Config{Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: s}}}}, 0, 10},
		{"per key", Config{Clients: clients, Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 10, Window: s}}}}, s, 4 * 20},
		{"tightest limit", Config{Clients: clients, Limits: []Limit{
			{Key: KeyUser, Policy: algorithms.Policy{Limit: 10, Window: s}},
			{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 50, Window: s}},
		}}, s, 80},
		{"local fleet of 3", Config{Topology: &Topology{Replicas: []ReplicaStep{{Count: 3}}},
			Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: s}}}}, s, 3 * 20},
		{"shared fleet of 3", Config{Topology: &Topology{Replicas: []ReplicaStep{{Count: 3}}},
			Limits: []Limit{{Key: KeyGlobal, State: StateShared, Policy: algorithms.Policy{Limit: 10, Window: s}}}}, s, 20},
		{"backend", Config{Backend: &Backend{Capacity: 2, QueueSize: 5, Service: Service{Mean: 100 * time.Millisecond}}}, s, 5 + 2 + 20},
		{"backend tighter than the limit", Config{
			Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 100, Window: s}}},
			Backend: &Backend{Capacity: 2, QueueSize: 5, Service: Service{Mean: 100 * time.Millisecond}}}, s, 27},
	}
	for _, tt := range tests {
		if got := tt.c.capacity(tt.d); got != tt.want {
			t.Errorf("%s: capacity(%v) = %v, want %v", tt.name, tt.d, got, tt.want)
		}
	}
}
