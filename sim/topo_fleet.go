package sim

import (
	"hash/fnv"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/engine"
	"github.com/rlsim/rlsim/sim/window"
)

// fleet is a lane's topology as it runs: the replicas, the load balancer and
// the store, and one placed table per limit of the chain, which the lane's
// chain decides through (they are its deciders). What a decision needs beyond
// (key, now, cost) — the replica, whether the store failed, the request — is
// set in ctx before the chain is decided.
type fleet struct {
	topo   *Topology
	lane   *lane
	count  int // replicas now
	most   int // replicas at most, over the run
	rr     uint64
	route  engine.Stream // random routing
	hashOf []uint64
	store  store

	ctx struct {
		replica  int32
		req      int32
		class    int32
		storeErr bool
		racy     bool // deciding on copies read from the store (racy check)
		cached   bool // deciding on the replica's refusal cache, no call made
		probe    bool // deciding a health probe, not a client's attempt
	}
	limits []placed
	shared bool // some limit calls the store on every decision
	// storeQuick is the one shared limit whose verdict alone decides an
	// admission at the store, or nil (topo_store_quick.go).
	storeQuick *sharedLimit
	calls      []storeCall      // per request slot: its store call in progress
	replicaOf  []int32          // per request slot: the replica deciding its attempt
	fleetPeak  []window.Tracker // per limit: across the fleet
	repPeak    []window.Tracker // per limit: key × replica
	arrived    []window.Tracker // per limit: across the fleet, as admissions reached the backend
	exact      []exactLimit     // per limit: one exact limiter deciding the same attempts
	same       samePeaks        // which of those windows count another's admissions, and are not kept
	latency    runHistogram     // the store's round trips
	result     TopologyResult
	health     *health // nil without a health check
	// stretch is the store's stretch of failed calls (shardStretch each
	// shard's, with several); failStretch counts the stretches so far (the
	// phases they start: callOutcome).
	stretch     storeStretch
	failStretch uint32
	// breakers are the circuit breakers, per replica × shard (with
	// Store.Breaker.Failures > 0), grown as replicas call.
	breakers []breaker
	leasing  bool // some shared limit leases units (Store.Lease)
	// shardOfClient is each client's shard of the store (nil: one shard).
	shardOfClient []uint16
	shardStretch  []storeStretch
	// shardBase is, with named stores, each store's first shard and last the
	// shards' count (nil: one store); probeShard the shard probes call.
	shardBase  []int
	probeShard int
}

// placed is one limit of the chain in a topology.
type placed interface {
	decider
	// setPolicy applies a rule push's new policy: every state starts afresh.
	setPolicy(p algorithms.Policy)
	// resize follows a change of the fleet from old to n replicas.
	resize(old, n int)
	stats() *LimitTopology
}

// Labels of the topology's random streams.
const (
	labelRouting = iota + 100
	labelStore
)

// newFleet builds the topology of lane l; chain kind is the per-key limiter its chain uses.
func newFleet(l *lane, kind LaneKind) (*fleet, error) {
	t := l.cfg.Topology
	f := &fleet{topo: t, lane: l, count: t.Replicas[0].Count,
		route: engine.NewStream(l.cfg.Seed, labelRouting), latency: newRunHistogram()}
	for _, s := range t.Replicas {
		f.most = max(f.most, s.Count)
	}
	if t.Routing == RoutingHash {
		f.hashOf = make([]uint64, l.pop.clients())
		for c := range f.hashOf {
			g := &l.pop.groups[l.pop.groupOf[c]]
			h := fnv.New64a()
			h.Write([]byte(clientKey(g, int(l.pop.indexOf[c]), t.HashKey)))
			f.hashOf[c] = h.Sum64()
		}
	}
	for i, lim := range l.cfg.Limits {
		keys := l.pop.keys[i].len() + probeSlots(t)
		p := l.cfg.policy(l.index, i)
		rule := l.cfg.ruleOf(kind, i)
		var pl placed
		var err error
		switch lim.State {
		case StateShared:
			f.shared = true
			f.leasing = f.leasing || leases(f, rule.kind)
			pl, err = newSharedLimit(f, rule, lim, p, keys, len(l.pop.groups))
		case StateSynced:
			pl, err = newSyncedLimit(f, rule, lim, p, keys)
		default:
			pl, err = newLocalLimit(f, rule, lim, p, keys)
		}
		if err != nil {
			return nil, FieldErrors{{Field: "limits[" + itoa(i) + "]", Problem: err.Error()}}
		}
		pl.stats().Limit, pl.stats().State = lim.Name, lim.State
		f.limits = append(f.limits, pl)
		keys = l.pop.keys[i].len() // the window peaks and the exact limiter count clients alone
		f.fleetPeak = append(f.fleetPeak, untimedWindow(p.Window, p.Limit, keys))
		f.repPeak = append(f.repPeak, untimedWindow(p.Window, p.Limit, keys*f.most))
		f.arrived = append(f.arrived, untimedWindow(p.Window, p.Limit, keys))
		ex, err := newExactLimit(rule, p, keys)
		if err != nil {
			return nil, FieldErrors{{Field: "limits[" + itoa(i) + "]", Problem: err.Error()}}
		}
		f.exact = append(f.exact, ex)
	}
	f.buildShards()
	f.store = newStore(f)
	f.health = newHealth(f)
	f.same = newSamePeaks(f)
	return f, nil
}

// newTable is a dense table of rule's per-key limiter for p.
func newTable(rule laneRule, p algorithms.Policy, keys int) (stateTable, error) {
	d, err := newDecider(rule, p, keys)
	if err != nil {
		return nil, err
	}
	return d.(stateTable), nil
}

// start schedules the fleet's own events: store restarts, health checks,
// autoscaler steps and syncs.
func (f *fleet) start() {
	f.startLoss()
	if f.health != nil {
		f.lane.eng.Schedule(0, evProbe, 0, 0)
	}
	for i, s := range f.topo.Replicas[1:] {
		f.lane.eng.Schedule(s.At, evReplicas, int32(i+1), 0)
	}
	for i, lim := range f.lane.cfg.Limits {
		if lim.State == StateSynced {
			f.scheduleSync(lim.SyncInterval, i)
		}
	}
}

// pick is the replica the load balancer sends client c's attempt to.
// With a health check it picks among the replicas in the rotation (which
// must not be empty), as if they were the whole fleet.
func (f *fleet) pick(c int32) int32 {
	n := uint64(f.count)
	var j int32
	if f.health != nil {
		n = uint64(len(f.health.rotation))
	}
	switch f.topo.Routing {
	case RoutingRandom:
		j = int32(f.route.Uint64() % n)
	case RoutingHash:
		j = int32(f.hashOf[c] % n)
	default:
		f.rr++
		j = int32((f.rr - 1) % n)
	}
	if f.health != nil {
		return f.health.rotation[j]
	}
	return j
}

// slot makes the per-request tables hold request r.
func (f *fleet) slot(r int32) {
	for int(r) >= len(f.calls) {
		f.calls = append(f.calls, storeCall{})
		f.replicaOf = append(f.replicaOf, 0)
	}
}

// unrouted marks request r as decided by no replica yet (Replica -1 in the trace).
func (f *fleet) unrouted(r int32) {
	f.slot(r)
	f.replicaOf[r] = -1
}

// setCtx sets what the placed limits read for request r.
func (f *fleet) setCtx(r int32) {
	f.ctx.req, f.ctx.replica = r, f.replicaOf[r]
	f.ctx.class = f.lane.pop.groupOf[f.lane.reqs.all[r].client]
	f.ctx.storeErr, f.ctx.racy, f.ctx.cached, f.ctx.probe = false, false, false, false
}

// resize applies autoscaler step i.
func (f *fleet) resize(i int) {
	old, n := f.count, f.topo.Replicas[i].Count
	f.count = n
	for _, pl := range f.limits {
		pl.resize(old, n)
	}
	if f.health != nil {
		f.resizeHealth(old, n)
	}
}

// scheduleSync schedules limit i's next sync at at. Syncs come in time order,
// far apart, so they join the queue's line, not its heap, which then holds
// the clients alone (one client: a heap of one, no sift); one out of order
// takes the heap, in the same order.
func (f *fleet) scheduleSync(at time.Duration, i int) {
	if syncLineOff {
		f.lane.eng.Schedule(at, evSync, int32(i), 0)
		return
	}
	f.lane.eng.ScheduleInOrder(at, evSync, int32(i), 0)
}

// sync is limit i's periodic sync with the store.
func (f *fleet) sync(i int) {
	l := f.lane
	lim := l.cfg.Limits[i]
	if next := later(l.eng.Now(), lim.SyncInterval); next <= l.end {
		f.scheduleSync(next, i)
	}
	if !f.store.sync(l.eng.Now(), f.count) {
		return
	}
	calls := int64(f.count)
	f.result.StoreCalls += calls
	f.limits[i].stats().StoreCalls += calls
	f.limits[i].(*syncedLimit).sync()
}

// buildFleet builds the lane's chain as placed in its topology.
func (l *lane) buildFleet(kind LaneKind) error {
	f, err := newFleet(l, kind)
	if err != nil {
		return err
	}
	l.fleet = f
	for i, pl := range f.limits {
		p := l.cfg.policy(l.index, i)
		l.chain = append(l.chain, pl)
		l.policies = append(l.policies, p)
		l.limits = append(l.limits, l.cfg.Limits[i])
		l.limits[i].Policy = p
		l.shadow = append(l.shadow, l.cfg.Limits[i].Shadow)
	}
	l.setQuickPath() // the kernel's, if the fleet fits it (topo_kernel.go)
	return nil
}
