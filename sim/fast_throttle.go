package sim

import "time"

// The client-throttling lane on the kernel (fast_kernel.go). Its client gate
// (throttleGate: each client's adaptive throttle) decides before the lane's
// one limit whether the client sends a request at all, and learns every
// answer: in the kernel's world an answer is heard when it is given, so the
// throttle's own state changes only at the kernel's decisions and releases,
// and it schedules no event. The kernel asks the gate as attempt does (the
// send decision and its drop probability sampled), counts a dropped request
// as dropped and given up, as fail and giveUp count it, and tells the gate
// each answer as succeed and refuse do: at a decision, or at a delayed
// request's release (kernelRelease).

// gateInKernel reports whether the kernel may take the lane's client gate:
// it is the adaptive throttle, the lane has no fleet (whose routing a drop
// never reaches) and throttleKernelOff is not set.
func (l *lane) gateInKernel() bool {
	_, ok := l.gate.(*throttleGate)
	return ok && !throttleKernelOff && l.fleet == nil
}

// kernelSend is the client gate of attempt for a new request of client c of
// class cls at now, in the kernel: the throttle's send decision, its drop
// probability sampled. It reports whether the client sends the request; a
// request it drops is counted here.
func (l *lane) kernelSend(run *kernelRun, c int32, cls *kernelClass, now time.Duration) bool {
	g := l.kern.gate
	tc := &g.clients[c]
	allowed, drop := g.t.Decide(&tc.state, now, tc.rnd.Float64())
	tc.drop = drop
	l.adapt.drop(now, drop)
	if !allowed {
		l.kernelDrop(run, c, cls, now)
	}
	return allowed
}

// kernelDrop counts a request of client c of class cls that its throttle
// dropped at now, as dropped, record, fail and giveUp do: dropped and given
// up, never decided, the verdict folded as a drop.
func (l *lane) kernelDrop(run *kernelRun, c int32, cls *kernelClass, now time.Duration) {
	m := &l.m
	m.counts.Dropped++
	m.counts.GaveUp++
	cl := &m.classes[cls.g]
	cl.Dropped++
	cl.GaveUp++
	m.point(now).Dropped++
	run.verdicts = foldVerdict(run.verdicts, now, cls.g, foldDrop)
	m.counts.AllDoneAt = max(m.counts.AllDoneAt, now)
	if l.cols != nil && l.column(TraceDrop) {
		key := int32(0)
		if l.kern.keys != nil {
			key = l.kern.keys[c]
		}
		l.rec = l.kernelRecord(TraceDrop, c, cls.cost, key)
		l.adaptiveRecord(TraceDrop, c)
		l.keepSample()
	}
}

// kernelAnswer tells client c's throttle, if the lane has one in the kernel,
// the answer given at now: accepted or not.
func (l *lane) kernelAnswer(c int32, now time.Duration, accepted bool) {
	if g := l.kern.gate; g != nil {
		g.t.Answered(&g.clients[c].state, now, accepted)
	}
}
