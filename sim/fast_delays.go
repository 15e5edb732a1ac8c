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
		l.kernelLate(run, c, cost, delay)
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
		l.kernelRelease(run, ev.A)
		processed++
	}
	return processed
}

// kernelRelease is released for request r, in the kernel: its admission
// reaches the most-admitted windows after every decision before it.
func (l *lane) kernelRelease(run *kernelRun, r int32) {
	l.flushChecks(run)
	l.m.verdicts = run.verdicts
	l.released(r)
	run.verdicts = l.m.verdicts
}
