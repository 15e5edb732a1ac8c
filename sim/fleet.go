package sim

import (
	"hash/fnv"
	"time"

	"github.com/rlsim/rlsim/algorithms"
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
	route  stream // random routing
	rtt    stream // store round trips
	hashOf []uint64
	downAt int // the first outage not yet over

	ctx struct {
		replica  int32
		req      int32
		class    int32
		storeErr bool
		racy     bool // deciding on copies read from the store (racy check)
	}
	limits    []placed
	shared    bool          // some limit calls the store on every decision
	calls     []storeCall   // per request slot: its store call in progress
	replicaOf []int32       // per request slot: the replica deciding its attempt
	fleetPeak []peakTracker // per limit: across the fleet
	repPeak   []peakTracker // per limit: key × replica
	latency   histogram
	result    TopologyResult
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

// storeCall is a decision waiting on the store: what was decided, and when it comes back.
type storeCall struct {
	answer      algorithms.Decision
	quota       int32
	shadowed    int32
	refused     bool
	atRA        bool // the attempt came at the instant a Retry-After pointed to
	failed      bool // the call failed (timeout): decide on each limit's fail mode at the reply
	writes      uint64
	write, back time.Duration
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
		route: streamFor(l.cfg.Seed, labelRouting), rtt: streamFor(l.cfg.Seed, labelStore), latency: newHistogram()}
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
		keys := len(l.pop.keyNames[i])
		p := l.cfg.policy(l.index, i)
		var pl placed
		var err error
		switch lim.State {
		case StateShared:
			f.shared = true
			pl, err = newSharedLimit(f, kind, lim, p, keys, len(l.pop.groups))
		case StateSynced:
			pl, err = newSyncedLimit(f, kind, lim, p, keys)
		default:
			pl, err = newLocalLimit(f, kind, lim, p, keys)
		}
		if err != nil {
			return nil, FieldErrors{{Field: "limits[" + itoa(i) + "]", Problem: err.Error()}}
		}
		pl.stats().Limit, pl.stats().State = lim.Name, lim.State
		f.limits = append(f.limits, pl)
		f.fleetPeak = append(f.fleetPeak, newPeakTracker(p.Window, p.Limit, keys))
		f.repPeak = append(f.repPeak, newPeakTracker(p.Window, p.Limit, keys*f.most))
	}
	return f, nil
}

// newTable is a dense table of lane kind's per-key limiter for p.
func newTable(kind LaneKind, p algorithms.Policy, keys int) (stateTable, error) {
	d, err := newDecider(kind, p, keys)
	if err != nil {
		return nil, err
	}
	return d.(stateTable), nil
}

// start schedules the fleet's own events: autoscaler steps and syncs.
func (f *fleet) start() {
	for i, s := range f.topo.Replicas[1:] {
		f.lane.eng.schedule(s.At, evReplicas, int32(i+1), 0)
	}
	for i, lim := range f.lane.cfg.Limits {
		if lim.State == StateSynced {
			f.lane.eng.schedule(lim.SyncInterval, evSync, int32(i), 0)
		}
	}
}

// pick is the replica the load balancer sends client c's attempt to.
func (f *fleet) pick(c int32) int32 {
	n := uint64(f.count)
	switch f.topo.Routing {
	case RoutingRandom:
		return int32(f.route.next() % n)
	case RoutingHash:
		return int32(f.hashOf[c] % n)
	}
	f.rr++
	return int32((f.rr - 1) % n)
}

// down reports whether the store is in an outage at t; t never goes back.
func (f *fleet) down(t time.Duration) bool {
	o := f.topo.Store.Outages
	for f.downAt < len(o) && o[f.downAt].To <= t {
		f.downAt++
	}
	return f.downAt < len(o) && o[f.downAt].From <= t
}

// roundTrip draws one store round trip.
func (f *fleet) roundTrip() time.Duration {
	s := f.topo.Store.Latency
	if s.Mean <= 0 {
		return 0
	}
	if s.Kind == ServiceExponential {
		return f.rtt.exp(s.Mean)
	}
	return s.Mean
}

// slot makes the per-request tables hold request r.
func (f *fleet) slot(r int32) {
	for int(r) >= len(f.calls) {
		f.calls = append(f.calls, storeCall{})
		f.replicaOf = append(f.replicaOf, 0)
	}
}

// setCtx sets what the placed limits read for request r.
func (f *fleet) setCtx(r int32) {
	f.ctx.req, f.ctx.replica = r, f.replicaOf[r]
	f.ctx.class = f.lane.pop.groupOf[f.lane.reqs.all[r].client]
	f.ctx.storeErr, f.ctx.racy = false, false
}

// begin routes the attempt of request r to a replica and has it decided: at
// once when no limit calls the store (or the store answers in no time, or is
// down), else when the call reaches the store, the lane acting on the answer
// when it is back.
func (f *fleet) begin(r int32, atRA bool) {
	l := f.lane
	now := l.eng.now
	f.slot(r)
	f.replicaOf[r] = f.pick(l.reqs.all[r].client)
	f.setCtx(r)
	if !f.callsStore(l.reqs.all[r].client) {
		f.decideNow(r, atRA)
		return
	}
	st := &f.topo.Store
	calls := int64(1)
	if st.Racy {
		calls = 2
	}
	c := l.reqs.all[r].client
	if f.down(now) {
		f.called(c, 1)
		f.result.StoreErrors++
		f.latency.add(0)
		f.ctx.storeErr = true
		f.decideNow(r, atRA)
		return
	}
	read, write := f.roundTrip(), time.Duration(0)
	if st.Racy {
		write = f.roundTrip()
	}
	f.called(c, calls)
	total := later(read, write)
	if st.Timeout > 0 && total > st.Timeout {
		f.result.StoreErrors++
		f.latency.add(st.Timeout)
		f.calls[r] = storeCall{atRA: atRA, failed: true, back: later(now, st.Timeout)}
		if f.calls[r].back > l.end {
			f.result.Waiting++
			return
		}
		f.schedule(f.calls[r].back, evStoreReply, r)
		return
	}
	f.latency.add(total)
	if total == 0 {
		f.decideNow(r, atRA)
		return
	}
	if later(now, total) > l.end {
		f.result.Waiting++ // answered after the run: nothing of it is decided
		return
	}
	f.calls[r] = storeCall{atRA: atRA, write: later(now, later(read, write/2)), back: later(now, total)}
	f.schedule(later(now, read/2), evStoreDecide, r)
}

// callsStore reports whether a decision for client c calls the store: some
// shared limit of the chain counts c's requests.
func (f *fleet) callsStore(c int32) bool {
	if !f.shared {
		return false
	}
	for i, lim := range f.lane.cfg.Limits {
		if lim.State == StateShared && !f.lane.pop.skips(i, c) {
			return true
		}
	}
	return false
}

// called counts calls round trips to the store for client c's decision, for
// every shared limit counting c.
func (f *fleet) called(c int32, calls int64) {
	f.result.StoreCalls += calls
	for i, lim := range f.lane.cfg.Limits {
		if lim.State == StateShared && !f.lane.pop.skips(i, c) {
			f.limits[i].stats().StoreCalls += calls
		}
	}
}

// schedule schedules a store event of request r, unless the run ends first:
// the attempt then waits on the store for ever (begin counts it).
func (f *fleet) schedule(at time.Duration, kind eventKind, r int32) {
	if at <= f.lane.end {
		f.lane.eng.schedule(at, kind, r, 0)
	}
}

// decideNow decides the chain at the lane's time and acts on it.
func (f *fleet) decideNow(r int32, atRA bool) {
	l := f.lane
	req := &l.reqs.all[r]
	answer, quota, refused := l.decideChain(req.client, l.eng.now, req.cost)
	f.ctx.storeErr = false
	l.act(r, answer, quota, refused, atRA)
}

// storeDecide is the call of request r reaching the store: the chain is decided
// now (on copies of the shared states when the check is racy).
func (f *fleet) storeDecide(r int32) {
	l := f.lane
	f.setCtx(r)
	f.ctx.racy = f.topo.Store.Racy
	req := &l.reqs.all[r]
	call := &f.calls[r]
	call.writes = 0
	answer, quota, refused := l.decideChain(req.client, l.eng.now, req.cost)
	call.answer, call.quota, call.refused, call.shadowed = answer, int32(quota), refused, int32(l.shadowed)
	f.ctx.racy = false
	if f.topo.Store.Racy {
		f.schedule(call.write, evStoreWrite, r)
		return
	}
	f.schedule(call.back, evStoreReply, r)
}

// storeWrite is the write of a racy check reaching the store: the states it
// read and admitted on replace what the store holds.
func (f *fleet) storeWrite(r int32) {
	call := &f.calls[r]
	for i, pl := range f.limits {
		if call.writes&(1<<i) != 0 {
			pl.(*sharedLimit).writeBack(f.lane.pop.keyOf[i][f.lane.reqs.all[r].client], r)
		}
	}
	f.schedule(call.back, evStoreReply, r)
}

// storeReply is the store's answer (or the timeout) back at the replica.
func (f *fleet) storeReply(r int32) {
	call := f.calls[r]
	f.setCtx(r)
	if call.failed {
		f.ctx.storeErr = true
		f.decideNow(r, call.atRA)
		return
	}
	f.lane.shadowed = int(call.shadowed)
	f.lane.act(r, call.answer, int(call.quota), call.refused, call.atRA)
}

// resize applies autoscaler step i.
func (f *fleet) resize(i int) {
	old, n := f.count, f.topo.Replicas[i].Count
	f.count = n
	for _, pl := range f.limits {
		pl.resize(old, n)
	}
}

// sync is limit i's periodic sync with the store.
func (f *fleet) sync(i int) {
	l := f.lane
	lim := l.cfg.Limits[i]
	if next := later(l.eng.now, lim.SyncInterval); next <= l.end {
		l.eng.schedule(next, evSync, int32(i), 0)
	}
	if f.down(l.eng.now) {
		return
	}
	calls := int64(f.count)
	f.result.StoreCalls += calls
	f.limits[i].stats().StoreCalls += calls
	f.limits[i].(*syncedLimit).sync()
}

// admitted counts an admission of request r in every limit's fleet and replica peaks.
func (f *fleet) admitted(r int32, now time.Duration, cost int64) {
	c := f.lane.reqs.all[r].client
	rep := f.replicaOf[r]
	for i := range f.limits {
		if f.lane.pop.skips(i, c) {
			continue
		}
		k := f.lane.pop.keyOf[i][c]
		f.fleetPeak[i].add(k, now, cost)
		f.repPeak[i].add(rep*int32(len(f.lane.pop.keyNames[i]))+k, now, cost)
	}
}

// topologyResult is the fleet's figures at the end.
func (f *fleet) topologyResult(cfg *Config) *TopologyResult {
	r := f.result
	r.Replicas, r.Routing = f.most, f.topo.Routing
	if cfg.Duration > 0 {
		r.StoreCallsPerSecond = float64(r.StoreCalls) / cfg.Duration.Seconds()
	}
	r.StoreLatency = f.latency.percentiles()
	for i, pl := range f.limits {
		lt := *pl.stats()
		keys := f.lane.pop.keyNames[i]
		limit := cfg.Limits[i].Policy.Limit
		lt.Fleet = peakOf(&f.fleetPeak[i], limit, func(id int32) string { return keys[id] })
		lt.Replica = peakOf(&f.repPeak[i], limit, func(id int32) string { return keys[id%int32(len(keys))] })
		if f.repPeak[i].bestID >= 0 {
			lt.BusiestReplica = int(f.repPeak[i].bestID) / len(keys)
		}
		lt.Overshoot = max(0, lt.Fleet.Count-limit)
		lt.Classes = append([]OutageClass(nil), lt.Classes...)
		r.Limits = append(r.Limits, lt)
	}
	return &r
}

func peakOf(p *peakTracker, limit int64, key func(int32) string) WindowPeak {
	w := p.best
	if p.bestID >= 0 {
		w.Key = key(p.bestID)
	}
	w.Limit = limit
	w.Ratio = float64(w.Count) / float64(limit)
	return w
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
	return nil
}
