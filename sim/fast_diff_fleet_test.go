package sim

import (
	"testing"
	"time"
)

// The fleets that take a fast path — one replica with one local limit, run
// as one limiter (topo_onelimiter.go), and fleets with no shared limit in the
// kernel (topo_kernel.go) — held to the general path by the harness on
// kernel-shaped worlds of its generator behind such fleets. (The corpus's
// own topologies seldom take them; putting them there would take its worlds
// from the paths they reach.) Checked against bugs planted one at a time:
// a one-limiter fleet of two replicas (the count unchecked), or with a store
// restart, its Arrived not read from the lane's peak; the kernel's twin not
// deciding, not counting its admission, not rebuilt after a rule push; a
// request not routed, its admission counted on replica 0; a synced
// admission not pushed; a held division ignored; Traefik's delays in the
// kernel; the second limit's Fleet window dropped, Replica read from Fleet
// with two replicas, Arrived from Fleet with a shared store.

// diffOneReplica puts c behind one replica with its limits local, whole:
// the fleet that decides as one limiter, with routing k mod 3 and a store
// that none of its limits calls; but when k is 3 mod 4 the store restarts
// (an event of the fleet's own, which keeps the lane in its fleet).
func diffOneReplica(c *Config, k uint64) {
	c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 1}}, Routing: Routing(k % 3),
		Store: Store{Latency: Service{Mean: time.Millisecond}, Outages: []Outage{{From: 0, To: time.Second, Flush: k%4 == 3}}}}
	for i := range c.Limits {
		c.Limits[i].State, c.Limits[i].LocalLimit = StateLocal, LocalFull
	}
}

// fleetShape is a fleet of diffFleet: replicas at first, then (if then > 0)
// from then windows on; where the limits are; routing.
type fleetShape struct {
	first, then, next int
	state             StateKind
	local             LocalLimit
	routing           Routing
}

// fleetShapes grow, shrink and keep fleets of divided, whole and synced limits.
var fleetShapes = []fleetShape{
	{2, 2, 3, StateLocal, LocalDivided, RoutingRoundRobin}, {3, 3, 1, StateLocal, LocalDivided, RoutingHash},
	{2, 0, 0, StateSynced, LocalFull, RoutingRandom}, {3, 2, 2, StateSynced, LocalFull, RoutingRoundRobin},
	{2, 1, 3, StateLocal, LocalDivided, RoutingRandom}, {2, 3, 1, StateLocal, LocalFull, RoutingHash},
	{3, 0, 0, StateSynced, LocalFull, RoutingRoundRobin}, {2, 2, 3, StateSynced, LocalFull, RoutingHash},
}

// diffFleet puts c behind the fleet fs, its limits synced every 3/2 windows.
func diffFleet(c *Config, fs fleetShape) {
	w := c.Limits[0].Policy.Window
	t := &Topology{Replicas: []ReplicaStep{{Count: fs.first}}, Routing: fs.routing, HashKey: KeyUser}
	if fs.then > 0 {
		t.Replicas = append(t.Replicas, ReplicaStep{At: time.Duration(fs.then) * w, Count: fs.next})
	}
	c.Topology = t
	for i := range c.Limits {
		l := &c.Limits[i]
		l.State, l.LocalLimit, l.SyncInterval = fs.state, fs.local, 3*w/2
	}
}

// diffSharedStore puts c behind k%2+2 replicas, its limits shared in a store
// 1/10 window away: racy when k is odd, its latency drawn when k is 2 or 3
// mod 4; with k of 4 or more a real store (shards, a capacity with a queue
// limit, a memory that evicts, a timeout), and with 6 or 7 an outage, a
// breaker and a refusal cache besides; 8 an atomic store with only a memory
// that evicts, 9 with only an outage. The store's verdict-alone path
// (topo_store_quick.go) decides its calls where the chain is one limit; the
// exact twin is the store's window (twinIsStore) in an atomic store that
// neither fails nor forgets.
func diffSharedStore(c *Config, k int) {
	w := c.Limits[0].Policy.Window
	st := Store{Latency: Service{Kind: ServiceKind(k / 2 % 2), Mean: w / 10}, Racy: k%2 == 1 && k < 8}
	switch {
	case k == 8: // room for a key or two: counters forgotten, the fleet over the twin
		st.MaxMemory, st.Eviction = 200, EvictLRU
	case k == 9: // failing open all along: the fleet over the twin
		st.Outages = []Outage{{From: 0, To: c.Duration}}
	case k >= 4:
		st.Shards, st.Capacity, st.QueueLimit, st.Timeout = 2, 20/w.Seconds(), 4, w/4
		st.MaxMemory, st.Eviction = 200, EvictLRU
	}
	if k == 6 || k == 7 {
		st.Outages = []Outage{{From: w, To: 2 * w}}
		st.Breaker = Breaker{Failures: 2, Window: w, Cooldown: w / 2, Probes: 1}
		st.RefusalCache = true
	}
	c.Topology = &Topology{Replicas: []ReplicaStep{{Count: k%2 + 2}}, Routing: Routing(k % 3), HashKey: KeyUser, Store: st}
	for i := range c.Limits {
		c.Limits[i].State, c.Limits[i].OnStoreError, c.Limits[i].LocalLimit = StateShared, FailMode(k%3), LocalFull
		if k == 9 {
			c.Limits[i].OnStoreError = FailOpen
		}
		c.Limits[i].Fallback = c.Limits[i].Policy
	}
}

// sharedStoreWorld is the first world of the generator (seed 3000+k, +100,
// …; of shape shape) behind store k of diffSharedStore that validates.
func sharedStoreWorld(k int, shape diffShape) Config {
	for seed := uint64(3000 + k); ; seed += 100 {
		cfg := diffWorld(seed, shape)
		if k%4 == 2 && k < 8 { // a rule push: the store's table starts afresh
			pushed := cfg.Limits[0].Policy
			pushed.Limit, pushed.Burst = max(1, pushed.Limit/2), pushed.Burst/2
			cfg.Rules = []RuleChange{{At: 3 * pushed.Window, Policy: pushed}}
		}
		diffSharedStore(&cfg, k)
		if cfg.Validate() == nil {
			return cfg
		}
	}
}

func TestFleetFastPathsAreTheGeneralPath(t *testing.T) {
	sets := diffSets()
	var use fastPathUse
	shapes := []diffShape{shapeKernel, shapeKernel | shapeOneKey | shapeUnitCost, shapeKernel | shapeManyKeys, shapeKernel | shapeNoHeaders}
	var worlds []Config
	for k := range uint64(4) {
		cfg := diffWorld(1000+k, shapes[k])
		diffOneReplica(&cfg, k)
		worlds = append(worlds, cfg)
	}
	for k, fs := range fleetShapes {
		worlds = append(worlds, fleetWorld(k, fs, shapes[k%4]))
	}
	// Products with no retry (the kernel's), Traefik's delays among them
	// (which keep a fleet off the kernel).
	for k := range uint64(2) {
		cfg := diffProductWorld(k)
		cfg.Lanes, cfg.Duration = append(cfg.Lanes, LaneTraefik), 8*time.Second
		for g := range cfg.Clients {
			cfg.Clients[g].Retry, cfg.Clients[g].RTT, cfg.Clients[g].Deadline = Retry{}, 0, 0
		}
		diffFleet(&cfg, fleetShapes[k])
		worlds = append(worlds, cfg)
	}
	// bench/model.yaml's traffic, 2 s of it, behind 8 replicas whose limit is
	// divided or synced: replicas refuse in the kernel, by their refusal
	// alone once the first refusal's headers are kept.
	for _, place := range []func(*Limit){
		func(l *Limit) { l.LocalLimit = LocalDivided },
		func(l *Limit) { l.State, l.SyncInterval = StateSynced, 10*time.Millisecond },
	} {
		cfg := modelBehind(&Topology{Replicas: []ReplicaStep{{Count: 8}}}, place)
		cfg.Duration = 2 * time.Second
		worlds = append(worlds, cfg)
	}
	// Stores 1 and 4 to 7 (racy with a constant latency, a real one) reach
	// nothing more, for their time.
	for _, k := range []int{0, 2, 3, 8, 9} {
		// Many keys to forget (8), one key to overrun (9).
		worlds = append(worlds, sharedStoreWorld(k, shapes[[]int{0, 1, 2, 3, 0, 1, 2, 3, 2, 1}[k]]))
	}
	flips := map[string]int{}
	for k, cfg := range worlds {
		out, err := checkFastPaths(cfg, sets)
		if err != nil {
			t.Fatalf("world %d: %v\nworld: %+v", k, err, cfg)
		}
		countFlips(flips, out)
		if !out.valid {
			t.Errorf("world %d does not validate (%v): it tests nothing", k, cfg.Validate())
		}
		use.add(out.paths)
	}
	requireFlips(t, flips, 1) // every switch, in some fleet world: a fleet reaches them all
	t.Logf("lanes run as one limiter %d, fleet lanes in the kernel %d, store calls by the verdict alone: atomic %d, racy %d; twins that are the store %d",
		use.oneLimiter, use.fleetKernel, use.storeQuick, use.storeQuickRacy, use.twinIsStore)
	if use.twinIsStore < 5 {
		t.Errorf("lanes whose exact twin is the store's window: %d, want at least 5: the worlds no longer reach them", use.twinIsStore)
	}
	if use.storeQuick < 10 || use.storeQuickRacy < 10 {
		t.Errorf("lanes deciding store calls by the verdict alone: atomic %d, racy %d, want at least 10 each: the worlds no longer reach them",
			use.storeQuick, use.storeQuickRacy)
	}
	if use.oneLimiter < 6 || use.fleetKernel < 15 {
		t.Errorf("lanes run as one limiter %d, want at least 6; fleet lanes in the kernel %d, want at least 15: the worlds no longer reach them",
			use.oneLimiter, use.fleetKernel)
	}
}

// fleetWorld is the first world of the generator (seed 2000+k, +100, …; of shape
// shape) behind fleet fs that validates, with a second limit when k is 1 mod
// 4 and a rule push when k is 2 mod 4.
func fleetWorld(k int, fs fleetShape, shape diffShape) Config {
	for seed := uint64(2000 + k); ; seed += 100 {
		cfg := diffWorld(seed, shape)
		p := cfg.Limits[0].Policy
		switch k % 4 {
		case 1: // a chain of two, off the kernel: the second limit's windows
			second := p
			second.Limit = p.Limit*2 - 1
			cfg.Limits = append(cfg.Limits, Limit{Name: "second", Key: KeyGlobal, Policy: second})
		case 2: // a rule push: the limit and its twin start afresh
			// At a sync (of a synced limit): the kernel may then take the
			// first request after the push, and rebuild the twin.
			pushed := p
			pushed.Limit, pushed.Burst = max(1, p.Limit/2), p.Burst/2
			cfg.Rules = []RuleChange{{At: 3 * p.Window, Policy: pushed}}
		}
		diffFleet(&cfg, fs)
		if cfg.Validate() == nil {
			return cfg
		}
	}
}
