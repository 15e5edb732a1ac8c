package sim

import "time"

// The concurrency-limiter lanes (AIMD, Vegas, Gradient2) on the kernel
// (fast_kernel.go). With no backend behind the limit, a request enters its
// limit and leaves it at the same instant, as enter and succeed take it: a
// place acquired, the request admitted, the place released with latency 0,
// the adaptive state sampled after each change. The kernel does that in
// line, without a request slot or an event; a request the limit sheds (none
// does with nothing in flight, but a limiter may) is handed to the general
// path's shed, as enter hands it.

// concInKernel reports whether the kernel may take the lane's concurrency
// limit: no partitions (whose shares decide who takes a place), every client
// counted by the first limit (its cross-check), concKernelOff not set. The
// rest of the kernel's world (no backend, no retry, no round trip) is
// kernelFits's.
func (l *lane) concInKernel() bool {
	return !concKernelOff && l.parts == nil && !l.pop.scoped
}

// kernelConc is enter and succeed for a new request of client c of class cls
// at now, in the kernel, on a lane whose limit is a concurrency limiter.
func (l *lane) kernelConc(run *kernelRun, c int32, cls *kernelClass, now time.Duration) {
	key := int32(0)
	if l.kern.keys != nil {
		key = l.kern.keys[c]
	}
	if !l.conc.Acquire(now) {
		l.kernelShed(run, c, cls, key, now)
		return
	}
	limitIn, held := l.conc.Limit(), l.kernelInFlight()
	l.kernelCheck(run, key, now, cls.cost, true)
	if l.cols != nil {
		l.kernelConcColumn(c, cls.cost, key)
	}
	l.conc.Release(now, 0)
	l.adapt.concPassed(now, limitIn, held, l.conc.Limit(), l.kernelInFlight())
	l.kernelAnswered(run, c, cls, now, 0, true)
}

// kernelInFlight is the requests in flight of the lane's concurrency
// limiter, 0 when it does not count them, as adaptiveSampler.conc reads it.
func (l *lane) kernelInFlight() int {
	if f := l.kern.inFlight; f != nil {
		return f.InFlight()
	}
	return 0
}

// kernelShed hands a request of client c of class cls for key at now that
// the lane's concurrency limit refused to the general path, as enter does:
// its slot, the cross-check's verdict on a refusal, and the 503.
func (l *lane) kernelShed(run *kernelRun, c int32, cls *kernelClass, key int32, now time.Duration) {
	l.flushChecks(run) // the cross-check takes the decisions in order
	r := l.reqs.get()
	slot := &l.reqs.all[r]
	*slot = request{client: c, attempt: 1, num: l.clients[c].requests, cost: cls.cost, raDue: -1, started: now, gen: slot.gen}
	l.adapt.conc(now, l.conc)
	l.m.verdicts = run.verdicts
	l.m.slidingLogCheck(key, now, cls.cost, false)
	l.m.classes[cls.g].ShedByLane++
	l.shed(r, l.shedRetryAfter)
	run.verdicts = l.m.verdicts
}

// kernelConcColumn counts in the columns a request of client c and cost for
// key that the lane's concurrency limit admitted, as enter's record does: no
// limit named, the limiter's state while the request holds its place.
func (l *lane) kernelConcColumn(c int32, cost int64, key int32) {
	if !l.column(TraceAdmit) {
		return
	}
	l.rec = l.kernelRecord(TraceAdmit, c, cost, key)
	l.adaptiveRecord(TraceAdmit, c)
	l.keepSample()
}
