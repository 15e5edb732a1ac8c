package sim

import (
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
	failed      bool // the call failed (timeout): decide on each limit's fail mode at the reply
	counted     bool // the limit's view of the decision was counted when the store decided it
	writes      uint64
	write, back time.Duration
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

// begin routes the attempt of request r to a replica and has it decided: at
// once when no limit calls the store (or the store answers in no time, or is
// down), else when the call reaches the store, the lane acting on the answer
// when it is back.
func (f *fleet) begin(r int32, atRA bool) {
	l := f.lane
	now := l.eng.now
	f.slot(r)
	f.calls[r] = storeCall{}
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
		f.latency.Add(0)
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
		f.latency.Add(st.Timeout)
		f.calls[r] = storeCall{atRA: atRA, failed: true, back: later(now, st.Timeout)}
		if f.calls[r].back > l.end {
			f.result.Waiting++
			return
		}
		f.schedule(f.calls[r].back, evStoreReply, r)
		return
	}
	f.latency.Add(total)
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
	f.exactDecide(r, answer, quota, refused)
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
	f.exactDecide(r, answer, quota, refused)
	f.countDecided(r, answer, refused)
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
	f.lane.m.acting = true // counted when the store decided (countDecided)
	f.lane.act(r, call.answer, int(call.quota), call.refused, call.atRA)
	f.lane.m.acting = false
}
