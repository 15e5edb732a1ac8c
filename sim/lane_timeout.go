package sim

import "time"

// startTimeout starts the timeout of the attempt of request r that reaches
// the limiter now, if its client has one (ClientGroup.Timeout): it was sent a
// half round trip ago, and its client gives it up at Timeout + 1ns after
// that unless it has heard its answer by then. A constant round trip is
// shorter than the timeout (Validate); an exponential one's way there may
// take longer, and the client then gives the attempt up as it arrives.
func (l *lane) startTimeout(r int32) {
	req := &l.reqs.all[r]
	timeout := l.pop.groups[l.pop.groupOf[req.client]].Timeout
	if timeout <= 0 {
		return
	}
	req.gen++
	now := l.eng.Now()
	sent := now - l.halfTrip(r, req.attempt)
	req.raDue = sent // free from the attempt until its answer
	if at := max(later(later(sent, timeout), 1), now); at <= l.end {
		l.eng.Schedule(at, evTimeout, r, req.gen)
	}
}

// timeout is an evTimeout event of request r: if the attempt it was
// started for (gen) is still unanswered, its client gives it up and goes on
// with the request in a slot of its own, applying its retry policy as to a
// 504; r stays with the service until the service answers it, unless it was
// answered too late already.
func (l *lane) timeout(r, gen int32) {
	if l.reqs.all[r].gen != gen {
		return // heard in time, or given up
	}
	next := l.reqs.get()
	req := &l.reqs.all[r]
	g := l.pop.groupOf[req.client]
	l.m.timedOut(g)
	l.throttleAnswer(req.client, false)
	moved := *req
	moved.gen, moved.places, moved.raDue = l.reqs.all[next].gen, 0, -1
	moved.service, moved.entered, moved.late = 0, 0, false
	if req.late {
		l.reqs.put(r)
	} else {
		req.timedOut = true
		req.gen++
	}
	l.reqs.all[next] = moved
	l.retryOrGiveUp(next, 0, StatusTimeout)
}

// servedLate finishes request r, served after latency in the lane, whose
// answer its client never hears: it gave the attempt up at its timeout, or
// will before the answer reaches it. The backend's work on it is wasted.
func (l *lane) servedLate(r int32, latency time.Duration) {
	req := &l.reqs.all[r]
	var wasted time.Duration
	if l.backend != nil {
		wasted = req.service
	}
	l.m.servedLate(latency, wasted, l.backend != nil)
	if req.timedOut {
		l.reqs.put(r)
		return
	}
	req.late = true // put when its client gives it up
}
