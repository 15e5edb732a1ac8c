package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// A shared store on the kernel. A fleet whose one limit is shared in a store
// the exact twin decides as (twinIsStore: an atomic check, a store that never
// fails nor forgets, no breaker, cache, lease or health check) takes the
// kernel (fast_kernel.go) when nobody reads more of an answer than its verdict
// (answerUnread). Each attempt's call is made at its arrival, as begin makes
// it; then, when the call's decision at the store and its answer at the
// replica are the next two events the general loop would handle — the answer
// is back before every other pending event (the client's or its group's next
// arrival included), at or before where the kernel stops, and the event
// budget holds both — the kernel decides the call at the store's instant and
// acts on the answer at its return, in line, as storeDecide and storeReply
// would: the three events at once, with no request slot and nothing
// scheduled. Any other call (an answer after something else, or in no time)
// is handed to the general path where begin would go on (fleet.sent), and
// its decision and answer, when each is the earliest event, are handled
// without leaving the kernel (kernelStoreEvent).

// fitsStoreKernel reports whether fleet f's store calls may be taken by the
// kernel (see above); the rest of the kernel's world is kernelFits's.
func (f *fleet) fitsStoreKernel() bool {
	return !storeKernelOff && f.same.exact && f.lane.answerUnread()
}

// kernelStore is begin, storeDecide and storeReply for the kernel's request
// of client c of class cls at now, its attempt counted: the call made, and
// when its decision and answer come next (see above) both carried out here.
func (l *lane) kernelStore(run *kernelRun, c int32, cls *kernelClass, now time.Duration) {
	f := l.fleet
	f.kernelRoute(c)
	a := f.store.call(now, f.ctx.replica, c, 1) // atomic: one round trip
	f.answered(c, a)
	back := later(now, a.roundTrip)
	if a.failure != storeAnswered || a.roundTrip == 0 || back > run.stop || back >= run.next || run.room < 2 {
		if l.decidesFirst(run, now, back, a) {
			l.kernelAwaited(run, c, cls, now, a)
			return
		}
		l.kernelSent(run, c, cls, a)
		return
	}
	key, cost := int32(0), cls.cost
	if l.kern.keys != nil {
		key = l.kern.keys[c]
	}
	// The decision at the store (storeDecide, countDecided): the limit's view.
	decided := later(now, a.reach)
	l.eng.AdvanceTo(decided)
	d, _, admitted := l.storeVerdict(c, key, decided, cost)
	l.kernelCheck(run, key, decided, cost, admitted)
	var retryAfter time.Duration
	if admitted {
		f.decidedIn(c, f.ctx.replica, decided, 0, cost)
	} else {
		retryAfter = d.RetryAfter
		l.m.refusalHeaders(0, &d, l.cfg.HeaderStyle, l.limits)
	}
	// The answer back at the replica (storeReply, act): what the backend saw.
	l.eng.AdvanceTo(back)
	if admitted {
		f.admittedBy(c, f.ctx.replica, true, back, cost)
		l.m.timesToSuccess(cls.g).Add(back - now)
	}
	l.kernelAnswered(run, c, cls, back, retryAfter, admitted)
	if l.cols != nil {
		l.storeColumn(c, l.clients[c].requests, cost, admitted, &d, a)
	}
	run.took += 2
	l.kern.fused++
}

// storeVerdict is decideAtStore for the kernel's attempt of client c (key of
// the one limit, cost) reaching the store at now: the store's verdict alone
// where it admits at once, else the chain's answer; quota is the limit whose
// quota the answer reports, as decideAtStore keeps it.
func (l *lane) storeVerdict(c, key int32, now time.Duration, cost int64) (d algorithms.Decision, quota int, admitted bool) {
	if sl := l.fleet.storeQuick; sl != nil && sl.admitAt(key, now, cost) {
		l.shadowed = -1
		if l.cfg.Limits[0].NoHeaders {
			quota = -1
		}
		return d, quota, true
	}
	d, quota, refused := l.decideChain(c, now, cost)
	return d, quota, !refused
}

// kernelSent hands the kernel's request of client c of class cls, its store
// call made and answered (a), to the general path, as begin would go on
// with it: a request slot routed to the replica the kernel picked. A call
// answered in some time only schedules its decision, which the kernel may
// still take (kernelStoreEvent); one answered in none is decided and acted
// on now, by the general path, which asks the cross-check itself.
func (l *lane) kernelSent(run *kernelRun, c int32, cls *kernelClass, a storeAnswer) {
	decidedNow := a.failure != storeAnswered || a.roundTrip == 0
	if decidedNow {
		l.flushChecks(run)
	}
	f := l.fleet
	r := l.reqs.get()
	l.reqs.all[r] = request{
		client: c, attempt: 1, num: l.clients[c].requests, cost: cls.cost, raDue: -1, started: l.eng.Now(),
		gen: l.reqs.all[r].gen,
	}
	f.slot(r)
	f.calls[r] = storeCall{}
	f.replicaOf[r] = f.ctx.replica
	f.setCtx(r)
	if !decidedNow {
		f.sent(r, false, a, nil, 0)
		return
	}
	l.m.verdicts = run.verdicts
	f.sent(r, false, a, nil, 0)
	run.verdicts = l.m.verdicts
}

// decidesFirst reports whether the decision at the store of the kernel's
// call made at now, answered a (back at back), is the next event the general
// loop would handle though its answer is not: the decision before every
// other pending event, at or before the kernel's stop, within the budget,
// the answer within the run and not at the instant of the next arrival of
// the request's source (which the general loop, scheduling the answer only
// when the call is decided, would take first; any other event pending at
// that instant was scheduled before the call and comes first either way),
// and the kernel taking calls itself (kernelTakesCall).
func (l *lane) decidesFirst(run *kernelRun, now, back time.Duration, a storeAnswer) bool {
	if storeDecideFirstOff || a.failure != storeAnswered || a.roundTrip == 0 || run.room < 1 ||
		run.given != nil || run.record != nil {
		return false
	}
	decided := later(now, a.reach)
	return decided < run.next && decided <= run.stop && back <= l.end && back != run.arrival
}

// kernelAwaited is kernelSent and kernelDecideCall at once for the kernel's
// request of client c of class cls, its call made at now and answered a,
// when its decision comes first (decidesFirst): the request slot made as
// begin makes it, the call decided at the store's instant, and only its
// answer scheduled, as storeDecide would leave them.
func (l *lane) kernelAwaited(run *kernelRun, c int32, cls *kernelClass, now time.Duration, a storeAnswer) {
	f := l.fleet
	r := l.reqs.get()
	l.reqs.all[r] = request{
		client: c, attempt: 1, num: l.clients[c].requests, cost: cls.cost, raDue: -1, started: now,
		gen: l.reqs.all[r].gen,
	}
	f.slot(r)
	f.calls[r] = storeCall{}
	f.replicaOf[r] = f.ctx.replica
	f.await(r, false, a, 0)
	l.eng.AdvanceTo(later(now, a.reach))
	l.kernelDecideCall(run, r)
	run.took++
	l.kern.awaited++
}

// kernelStoreEvent handles the earliest event, when it is a store call's
// decision or answer at or before stop, as the general loop would (handle),
// without leaving the kernel: in the kernel's own way (kernelDecideCall,
// kernelReplyCall) where it may, else by the general path with the
// cross-check's batch and the verdict hash handed over and back, the
// kernel's other tallies kept (they add up with the lane's at the flush). It
// reports whether it handled one.
func (l *lane) kernelStoreEvent(run *kernelRun, stop time.Duration) bool {
	e := &l.eng
	ev, inLine := e.LineFirst()
	if !inLine {
		var ok bool
		if ev, ok = e.Top(); !ok {
			return false
		}
	}
	k := ev.Kind()
	if ev.At > stop || k != evStoreDecide && k != evStoreReply {
		return false
	}
	e.Pop()
	if l.cold {
		l.warmNext()
	}
	switch {
	case !l.kernelTakesCall(run, ev.A):
		l.flushChecks(run) // the general path asks the cross-check itself
		l.m.verdicts = run.verdicts
		l.handle(ev)
		run.verdicts = l.m.verdicts
	case k == evStoreDecide:
		l.kernelDecideCall(run, ev.A)
	default:
		l.kernelReplyCall(run, ev.A)
	}
	return true
}

// storeColumn counts in the columns (Options.Columns) the kernel's answer to
// request num of client c, of cost, its store call answered a, at the lane's
// clock: admitted, or refused with d, its sample the record act would write
// (the replica, the shard, the store's answer, the quota the answer reports).
// Columns keep the store's verdict alone off (setStoreQuick): d is the chain's.
func (l *lane) storeColumn(c int32, num, cost int64, admitted bool, d *algorithms.Decision, a storeAnswer) {
	ev, limit := TraceAdmit, l.quotaName(l.quotaOf())
	if !admitted {
		ev, limit = TraceRefuse, l.cfg.Limits[0].Name
	}
	if !l.column(ev) {
		return
	}
	f := l.fleet
	l.rec = TraceRecord{
		At: l.eng.Now(), Lane: l.kind, LaneName: l.name, LaneIndex: l.index, Event: ev, Client: int(c),
		Class: l.pop.groups[l.pop.groupOf[c]].Name, Key: l.pop.keys[0].name(l.pop.keyOf[0][c]),
		Request: num, Attempt: 1, Cost: cost, Replica: int(f.ctx.replica), Shard: -1,
		Limit: limit, Delay: d.Delay, RetryAfter: d.RetryAfter, Store: a.outcome, StoreLatency: a.roundTrip,
	}
	if f.shardCount() > 1 {
		l.rec.Shard = f.shardOf(c)
	}
	if limit != "" {
		l.rec.Remaining, l.rec.Reset, l.rec.Answered = d.Remaining, d.Reset, true
	}
	l.keepSample()
}
