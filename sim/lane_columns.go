package sim

import "time"

// column counts an attempt with fate ev, at the lane's clock, in the lane's
// columns and reports whether it is its column's first of that mark: then
// the caller fills l.rec and keeps it (keepSample). The caller checked
// l.cols != nil.
func (l *lane) column(ev TraceEvent) (first bool) {
	m, ok := MarkOf(ev)
	if !ok {
		return false
	}
	c, first := l.cols.count(m, l.eng.Now())
	if first {
		l.sampleTo = &c.Sample[m]
	}
	return first
}

// keepSample keeps l.rec as the first attempt of its mark in its column, the
// one column just asked for it.
func (l *lane) keepSample() {
	*l.sampleTo = l.rec
	l.sampleTo = nil
}

// columnOf counts in the columns an attempt of request r that a fast path
// decided with no Decision: admitted at once (delay 0) or late.
func (l *lane) columnOf(r int32, delay time.Duration) {
	ev := TraceAdmit
	if delay > 0 {
		ev = TraceDelay
	}
	if l.column(ev) {
		l.fillRecord(ev, r)
		l.rec.Limit, l.rec.Delay = l.quotaName(l.quotaOf()), delay
		l.keepSample()
	}
}

// quotaOf is the limit whose quota an answer of the lane's one limit reports:
// 0, or -1 when it sends no headers (decideOnly).
func (l *lane) quotaOf() int {
	if l.cfg.Limits[0].NoHeaders {
		return -1
	}
	return 0
}

// kernelColumn counts in the columns a request of client c the kernel
// answered at now: admitted, or refused with retryAfter.
func (l *lane) kernelColumn(c int32, cost int64, key int32, admitted bool, retryAfter time.Duration) {
	ev, limit := TraceAdmit, l.quotaName(l.quotaOf())
	if !admitted {
		ev, limit = TraceRefuse, l.cfg.Limits[0].Name
	}
	if !l.column(ev) {
		return
	}
	l.rec = l.kernelRecord(ev, c, cost, key)
	l.rec.Limit, l.rec.RetryAfter = limit, retryAfter
	l.adaptiveRecord(ev, c) // a client throttle's drop probability
	l.keepSample()
}

// kernelRecord is what fillRecord fills for an event ev of the kernel's
// request of client c and cost for key, at the lane's clock: its first
// attempt, with no fleet.
func (l *lane) kernelRecord(ev TraceEvent, c int32, cost int64, key int32) TraceRecord {
	return TraceRecord{
		At: l.eng.Now(), Lane: l.kind, LaneName: l.name, LaneIndex: l.index, Event: ev, Client: int(c),
		Class: l.pop.groups[l.pop.groupOf[c]].Name, Key: l.pop.keys[0].name(key),
		Request: l.clients[c].requests, Attempt: 1, Cost: cost, Replica: -1, Shard: -1,
	}
}
