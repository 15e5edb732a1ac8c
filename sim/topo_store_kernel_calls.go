package sim

import "time"

// A store call the kernel could not carry out at once (its answer comes
// after another event: round trips that vary let calls overlap) is handed to
// the general path (kernelSent): a request slot and its decision scheduled,
// as begin makes them. Its decision and its answer, each when it is the
// earliest event, are still the kernel's: carried out here as storeDecide and
// storeReply would carry them out in the kernel's world (fitsStoreKernel: an
// atomic store that never fails, no breaker, nothing read of the answer but
// its verdict), leaving the slot as they leave it, so that the general loop
// can take the rest over at any stop.

// kernelTakesCall reports whether the kernel may carry out the decision or
// answer of request slot r's store call itself: its call did not fail, and
// the lane neither leads nor follows others (fast_follow.go hands out the
// cross-check's verdicts in the order of the requests, not their answers).
// In the kernel's world today neither happens (the store never fails, and
// lanes with a topology never share requests: sharingLanes), so the general
// path never acts on a call the kernel decided; the slot is still left as
// storeDecide leaves it (counted, peakCounted), should that change.
func (l *lane) kernelTakesCall(run *kernelRun, r int32) bool {
	return run.given == nil && run.record == nil && !l.fleet.calls[r].failed
}

// kernelDecideCall is storeDecide for the call of request slot r reaching
// the store at the lane's clock: the limit's view counted, the answer's
// return scheduled.
func (l *lane) kernelDecideCall(run *kernelRun, r int32) {
	f, now := l.fleet, l.eng.Now()
	req := &l.reqs.all[r]
	c, cost := req.client, req.cost
	key := l.pop.keyOf[0][c]
	f.setCtx(r)
	call := &f.calls[r]
	call.writes = 0
	d, quota, admitted := l.storeVerdict(c, key, now, cost)
	call.answer, call.quota, call.refused, call.shadowed = d, int32(quota), !admitted, int32(l.shadowed)
	call.counted, call.peakCounted = true, true // countDecided
	l.kernelCheck(run, key, now, cost, admitted)
	l.m.decisions++ // counted at the decision, as decidedAt counts it (kernelReplyCall takes the answer's count back)
	if admitted {
		f.decidedIn(c, f.replicaOf[r], now, 0, cost)
	}
	f.schedule(call.back, evStoreReply, r)
}

// kernelReplyCall is storeReply for the answer to request slot r's call,
// back at the replica at the lane's clock: the request admitted (and
// succeeded) or refused (and given up), as the kernel counts its own, and
// its slot freed.
func (l *lane) kernelReplyCall(run *kernelRun, r int32) {
	f, now := l.fleet, l.eng.Now()
	req := &l.reqs.all[r]
	c := req.client
	cls := &l.kern.classes[l.pop.groupOf[c]]
	if cls.started == 0 && cls.admitted == 0 && cls.refused == 0 {
		l.kern.dirty = append(l.kern.dirty, cls.g) // a request of an earlier flush (see setKernel)
	}
	call := &f.calls[r]
	admitted := !call.refused
	var retryAfter time.Duration
	if admitted {
		f.admittedBy(c, f.replicaOf[r], true, now, req.cost)
		l.m.timesToSuccess(cls.g).Add(now - req.started)
	} else {
		retryAfter = call.answer.RetryAfter
		l.m.refusalHeaders(0, &call.answer, l.cfg.HeaderStyle, l.limits)
	}
	l.kernelAnswered(run, c, cls, now, retryAfter, admitted)
	l.m.decisions-- // the flush counts the answer as a decision: its decision was counted when it was made
	if l.cols != nil {
		f.setCtx(r) // the replica its sample names
		l.storeColumn(c, req.num, req.cost, admitted, &call.answer, storeAnswer{outcome: call.outcome, roundTrip: call.latency})
	}
	call.peakCounted = false // takePeak
	l.reqs.put(r)
	l.kern.answered++
}
