package sim

import (
	"github.com/rlsim/rlsim/sim/engine"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// storeCall is a decision waiting on the store: what was decided, and when it comes back.
type storeCall struct {
	answer      algorithms.Decision
	quota       int32
	shadowed    int32
	refused     bool
	atRA        bool // the attempt came at the instant a Retry-After pointed to
	failed      bool // the call failed, known only at the reply (a timeout): decide on each limit's fail mode then
	counted     bool // the limit's view of the decision was counted when the store decided it
	peakCounted bool // and the lane's peak has not yet skipped its admission (fleet.takePeak)
	writes      uint64
	write, back time.Duration
	gen         uint32 // the breaker's generation it was sent in
	// outcome and latency are the call's, for the attempt's first trace
	// record (traced once it has been written).
	outcome StoreOutcome
	traced  bool
	latency time.Duration
}

// store is the store shared and synced limits keep their state in, as the
// fleet sees it: for each call, when it reaches the store and when its answer
// is back, or that it failed and when that is known; and what it holds. The
// limits' states live with the limits (sharedLimit, syncedLimit): a store is
// the service between them and the replicas — its latency, its availability,
// its capacity. Calls and syncs come in time order (at never goes back).
type store interface {
	// call is replica's call, sent at at, for client c's decision: a check of
	// trips round trips (1 an atomic script, 2 a read then a write).
	call(at time.Duration, replica, c int32, trips int64) storeAnswer
	// sync is a synced limit's sync by n replicas at at (n calls): whether it
	// reached the store. A sync takes no time.
	sync(at time.Duration, n int) bool
	// account adds what the store holds and did, beyond the calls the fleet
	// counts, to the lane's result at the end.
	account(r *TopologyResult)
}

// storeAnswer is the store's answer to one call, in times after it was sent.
type storeAnswer struct {
	// reach is when the check reaches the store and is decided there; write
	// when the write of a two-trip check does.
	reach, write time.Duration
	// roundTrip is when the answer, or the failure, is known at the replica:
	// the latency the store adds to the decision (a failure known at once has 0,
	// and is decided at the attempt).
	roundTrip time.Duration
	// trips counts the round trips made, failed ones included.
	trips   int64
	failure storeFailure
	outcome StoreOutcome // for the trace: how it failed, or that it was answered
}

// storeFailure is how a store call failed: each limit then decides by its fail mode.
type storeFailure uint8

const (
	storeAnswered storeFailure = iota // no failure
	storeRefused                      // refused (connection refused: an outage)
	storeTimedOut                     // no answer within the timeout
)

// newStore is the store of fleet f's topology: a shard store when it is
// real (Store.Real), else the latency store (the same answers, less work).
func newStore(f *fleet) store {
	seed := f.lane.cfg.Seed
	if !f.topo.Store.Real() && len(f.topo.Stores) == 0 {
		return newLatencyStore(&f.topo.Store, engine.NewStream(seed, labelStore))
	}
	return newShardStore(f, engine.NewStream(seed, labelStore), engine.NewStream(seed, labelStore, 1))
}

// begin routes the attempt of request r to a replica and has it decided: at
// once when no limit calls the store (or the store answers in no time, or
// fails at once), else when the call reaches the store, the lane acting on
// the answer (or the failure) when it is back.
func (f *fleet) begin(r int32, atRA bool) {
	l := f.lane
	now := l.eng.Now()
	f.slot(r)
	f.calls[r] = storeCall{}
	if f.health != nil && len(f.health.rotation) == 0 {
		f.noHealthy(r)
		return
	}
	f.replicaOf[r] = f.pick(l.reqs.all[r].client)
	f.setCtx(r)
	if !f.callsStore(l.reqs.all[r].client) {
		f.decideNow(r, atRA)
		return
	}
	c := l.reqs.all[r].client
	trips := int64(1)
	if f.topo.Store.Racy {
		trips = 2
	}
	if f.topo.Store.RefusalCache && f.cachedRefusal(c, now) {
		f.result.Remedies.CacheHits++
		f.result.Remedies.CacheSaved += trips
		f.ctx.cached = true
		f.decideNow(r, atRA)
		return
	}
	if f.leasing && f.covered(c, now, l.reqs.all[r].cost) {
		f.result.Remedies.LeaseLocal++
		f.decideNow(r, atRA)
		return
	}
	var b *breaker
	var gen uint32
	if f.topo.Store.Breaker.Failures > 0 {
		if b = f.breakerOf(r); !f.allow(b, now) {
			b.counts.Saved += trips
			f.ctx.storeErr = true
			f.decideNow(r, atRA)
			return
		}
		gen = b.gen
	}
	a := f.store.call(now, f.replicaOf[r], c, trips)
	f.answered(c, a)
	f.sent(r, atRA, a, b, gen)
}

// answered counts the store's answer a to a call for client c's decision:
// its round trips, its latency and its outcome (a phase it may start).
func (f *fleet) answered(c int32, a storeAnswer) {
	f.called(c, a.trips)
	f.latency.Add(a.roundTrip)
	f.callOutcome(a.failure, c)
}

// sent goes on with the attempt of request r, routed and its store call
// answered (a), sent through breaker b (nil without one) of generation gen:
// decided at once when the answer takes no time, else when the call reaches
// the store, the lane acting on the answer (or the failure) when it is back.
func (f *fleet) sent(r int32, atRA bool, a storeAnswer, b *breaker, gen uint32) {
	l := f.lane
	now := l.eng.Now()
	f.calls[r].outcome, f.calls[r].latency = a.outcome, a.roundTrip
	if a.roundTrip == 0 && b != nil {
		f.outcome(b, gen, a.failure != storeAnswered, now)
	}
	if a.failure != storeAnswered {
		f.result.StoreErrors++
		if a.roundTrip == 0 {
			f.ctx.storeErr = true
			f.decideNow(r, atRA)
			return
		}
		f.calls[r] = storeCall{atRA: atRA, failed: true, back: later(now, a.roundTrip), gen: gen, outcome: a.outcome, latency: a.roundTrip}
		if f.calls[r].back > l.end {
			f.result.Waiting++
			return
		}
		f.schedule(f.calls[r].back, evStoreReply, r)
		return
	}
	if a.roundTrip == 0 {
		f.decideNow(r, atRA)
		return
	}
	if later(now, a.roundTrip) > l.end {
		f.result.Waiting++ // answered after the run: nothing of it is decided
		return
	}
	f.await(r, atRA, a, gen)
	f.schedule(later(now, a.reach), evStoreDecide, r)
}

// await sets request r's call, answered a at the lane's clock after no
// failure, to await its decision: its outcome, latency, write and answer's
// return. The rest of the call is zero.
func (f *fleet) await(r int32, atRA bool, a storeAnswer, gen uint32) {
	now := f.lane.eng.Now()
	call := &f.calls[r]
	call.outcome, call.latency = a.outcome, a.roundTrip
	call.atRA, call.write, call.back, call.gen = atRA, later(now, a.write), later(now, a.roundTrip), gen
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
// the attempt then waits on the store for ever (begin counts it). With a
// constant latency a store's events come in time order (a call reaches the
// store half a trip after it is sent, and is back half a trip after that),
// so they join the queue's line, not its heap, which then holds the clients
// alone; an event out of order (a timeout, a drawn latency) takes the heap
// there, in the same order.
func (f *fleet) schedule(at time.Duration, kind eventKind, r int32) {
	if at > f.lane.end {
		return
	}
	if storeLineOff {
		f.lane.eng.Schedule(at, kind, r, 0)
		return
	}
	f.lane.eng.ScheduleInOrder(at, kind, r, 0)
}

// decideNow decides the chain at the lane's time and acts on it.
func (f *fleet) decideNow(r int32, atRA bool) {
	l := f.lane
	req := &l.reqs.all[r]
	answer, quota, refused := l.decideChain(req.client, l.eng.Now(), req.cost)
	f.ctx.storeErr, f.ctx.cached = false, false
	f.exactDecide(r, answer, quota, refused)
	l.act(r, answer, quota, refused, atRA)
}

// storeDecide is the call of request r reaching the store: the chain is decided
// now (on copies of the shared states when the check is racy).
func (f *fleet) storeDecide(r int32) {
	l := f.lane
	f.setCtx(r)
	f.ctx.racy = f.topo.Store.Racy
	call := &f.calls[r]
	call.writes = 0
	f.decideAtStore(call, r, l.eng.Now())
	call.shadowed = int32(l.shadowed)
	f.ctx.racy = false
	if !f.same.exact {
		f.exactDecide(r, call.answer, int(call.quota), call.refused)
	}
	f.countDecided(r, call.answer.Delay, call.refused)
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
	call := &f.calls[r] // read before act, which may begin the next attempt of r
	f.setCtx(r)
	if f.topo.Store.Breaker.Failures > 0 {
		f.outcome(f.breakerOf(r), call.gen, call.failed, f.lane.eng.Now())
	}
	if call.failed {
		f.ctx.storeErr = true
		f.decideNow(r, call.atRA)
		return
	}
	f.lane.shadowed = int(call.shadowed)
	f.lane.m.acting = true // counted when the store decided (countDecided)
	f.lane.act(r, call.answer, int(call.quota), call.refused, call.atRA)
	f.lane.m.acting = false
}
