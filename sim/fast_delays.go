package sim

import "time"

// The delaying lanes on the kernel (fast_kernel.go). A lane whose one limit
// is a queue (a leaky bucket, nginx's limit_req: it gives its verdict and
// delay alone, fastDelays) admits a request at once, admits it late, at its
// release slot, or refuses it. In the kernel's world nobody reads more of the
// answer, so the kernel decides such a request by the queue's verdict and
// delay, schedules a delayed one's release as act does (the request's slot,
// the release in the queue's ordered line), and handles the release itself
// when it is the earliest event, as released would: the line's first event
// against the heap's top, ties by scheduling order, exactly as the general
// loop pops them. A lane that also admits by its verdict alone (Traefik) is
// in the kernel already; its releases are handled here too.

// delaysInKernel reports whether the kernel takes the lane's delays, and
// their releases: its one limit may delay (a queue on the direct path), the
// lane has no fleet (fitsKernel keeps a delaying limit's fleet off it) and
// delayKernelOff is not set.
func (l *lane) delaysInKernel() bool {
	return !delayKernelOff && l.direct.delays() && l.fleet == nil
}

// kernelQueue decides, in the kernel, a request of client c of class cls
// for key at now by the lane's queue: admitted at once, refused with
// retryAfter (its Decision's: the first refusal's headers are kept), or
// neither when it is delayed, its release scheduled.
func (l *lane) kernelQueue(run *kernelRun, c int32, cls *kernelClass, key int32, now time.Duration) (retryAfter time.Duration, admitted, refused bool) {
	cost := cls.cost
	if delay, ok := l.direct.admit(key, now, cost); ok {
		if delay == 0 {
			return 0, true, false
		}
		l.kernelQueued(run, c, cls, key, now, delay)
		return 0, false, false
	}
	// Refused: the queue left its state as it was, and Decide says so again
	// with the Retry-After and the headers.
	d := &l.dec
	l.direct.decide(d, l.quick, key, now, cost)
	l.m.refusalHeaders(0, d, l.cfg.HeaderStyle, l.limits)
	return d.RetryAfter, false, true
}

// kernelReleases handles, while the earliest event is the release of a
// delayed request in the line at or before stop, up to budget of them, each
// as released does, and returns how many it handled.
func (l *lane) kernelReleases(run *kernelRun, stop time.Duration, budget int) (processed int) {
	e := &l.eng
	for processed < budget {
		ev, ok := e.LineFirst()
		if !ok || ev.At > stop || ev.Kind() != evRelease {
			break
		}
		e.DropLineFirst()
		e.AdvanceTo(ev.At)
		l.kernelRelease(run, ev.A, ev.At)
		processed++
	}
	return processed
}

// kernelQueued is admitLate for a new request of client c of class cls for
// key at now that the queue admits after delay, in the kernel: the
// cross-check's verdict on an admission, the delay counted, and the release
// scheduled, in the order act takes them.
func (l *lane) kernelQueued(run *kernelRun, c int32, cls *kernelClass, key int32, now, delay time.Duration) {
	if run.batch.N > 0 {
		l.flushChecks(run) // the cross-check takes the decisions in order
	}
	m := &l.m
	m.later.catchUp(now)
	m.decisions++
	run.crossChecked(m.slog.Allow(key, now, cls.cost), true)
	m.counts.Delayed++
	m.delays.Add(delay)
	m.point(now).Delayed++
	run.verdicts = foldVerdict(run.verdicts, now, cls.g, foldDelay)
	r := l.reqs.get()
	slot := &l.reqs.all[r]
	*slot = request{client: c, attempt: 1, num: l.clients[c].requests, cost: cls.cost, raDue: -1, started: now, gen: slot.gen}
	if l.cols != nil {
		l.columnOf(r, delay) // as admitLate counts it
	}
	l.eng.ScheduleInOrder(later(now, delay), evRelease, r, 0)
}

// kernelRelease is released for request r at now, in the kernel's world
// (nothing after the limit: it succeeds at once, heard at once): its
// admission reaches the most-admitted windows after every decision before it.
func (l *lane) kernelRelease(run *kernelRun, r int32, now time.Duration) {
	if run.batch.N > 0 {
		l.flushChecks(run)
	}
	m, req := &l.m, &l.reqs.all[r]
	c := req.client
	g := l.pop.groupOf[c]
	key := int32(0)
	if l.kern.keys != nil {
		key = l.kern.keys[c]
	}
	m.later.catchUp(now)
	m.peak.Add(key, now, req.cost)
	run.verdicts = foldVerdict(run.verdicts, now, g, foldAdmit)
	p := m.point(now)
	p.Admitted++
	p.Succeeded++
	cl := &m.classes[g]
	cl.Admitted++
	cl.Succeeded++
	m.counts.Admitted++
	m.counts.Succeeded++
	m.counts.AllDoneAt = max(m.counts.AllDoneAt, now)
	m.timesToSuccess(g).Add(now - req.started)
	l.clients[c].succeeded++
	l.kernelAnswer(c, now, true) // to the client's throttle, if any
	l.reqs.put(r)
}

// releasesBefore handles, in a superposed group's run (runSuperposed) whose
// next arrival is drawn for at but not yet scheduled, the releases that come
// first, at or before stop, up to budget of them, as kernelReleases does: a
// release at at too, scheduled before the arrival will be. It stops at any
// other event, or a release that ties with one in the heap, which the heap
// then orders. It returns how many it handled.
func (l *lane) releasesBefore(run *kernelRun, at, stop time.Duration, budget int) (processed int) {
	e := &l.eng
	for processed < budget {
		ev, ok := e.LineHead()
		if !ok || ev.At > min(at, stop) || ev.Kind() != evRelease || ev.At >= e.NextInHeapAfterTop() {
			break
		}
		e.DropLineFirst()
		e.AdvanceTo(ev.At)
		l.kernelRelease(run, ev.A, ev.At)
		processed++
	}
	return processed
}
