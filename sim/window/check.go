package window

import "time"

// Allow is an exact sliding log's verdict on a request of cost for key at now,
// as algorithms.SlidingLog.Allow gives it: admitted when the cost admitted in
// (now−window, now] plus cost is at most the limit, and then recorded. The log
// is the lanes' cross-check; while it holds what the lane added, it is the
// key's window itself (see Tracker), where a SlidingLogState holds 48 B
// and a ring of at least 8.
func (p *Tracker) Allow(key int32, now time.Duration, cost int64) bool {
	return p.Verdict(key, now, cost, false)
}

// Verdict is Allow, then Add when the lane admitted the request at once
// (adds), in one call: checkInLine, or check where that cannot answer.
func (p *Tracker) Verdict(key int32, now time.Duration, cost int64, adds bool) bool {
	if p.off.InlineCheckOff {
		return p.check(key, now, cost, adds)
	}
	if allowed, done := p.checkInLine(key, now, cost, adds); done {
		return allowed
	}
	return p.check(key, now, cost, adds)
}

// checkInLine is check in the common cases, with no call but to drop what
// left the window (dropExpired): nothing pending, no ring going back to the
// slab or growing, no log parting or given up, no key going over the limit
// for the first time. Otherwise it reports done=false, having changed nothing
// but, perhaps, expired the key's window (which check does first anyway).
// Verdict asks it first, then check.
func (p *Tracker) checkInLine(key int32, now time.Duration, cost int64, adds bool) (allowed, done bool) {
	if p.pendingKey != 0 {
		return false, false
	}
	k := &p.keys[key]
	if k.n > 0 && k.first[0].at+p.window <= now {
		if k.size > 0 && (k.n <= inline || p.slab.at(k, k.n-inline-1).at+p.window <= now) {
			return false, false // the ring would go back to the slab
		}
		p.dropExpired(k, now)
	}
	if adds && (!k.hasRoom() || k.span == 0 && p.timed && k.sum+cost > p.limit) {
		return false, false // the ring grows, or the key goes over the limit for the first time
	}
	switch {
	case k.log == 0:
		allowed = cost <= p.limit-k.sum
		switch {
		case !allowed && adds:
			return false, false // the log parts
		case allowed && !adds:
			p.pending, p.pendingKey = admission{now, cost}, key+1
		}
	case p.unit == 0:
		return false, false
	default:
		r := &p.recent[k.log-1]
		if k.n == 0 && !p.recentHolds(r, now) {
			return false, false // the log is given up
		}
		if allowed = p.recentAllows(r, now); allowed {
			if !p.recentRoom(r, now) {
				return false, false
			}
			p.recordRecent(r, now)
		}
	}
	if adds {
		p.advance(k, now)
		p.pushInPlace(k, admission{now, cost})
		p.noteBest(k, key)
	}
	return allowed, true
}

// check is Allow, then Add when the lane admitted the request at once (adds),
// in one call that leaves nothing pending (Verdict asks checkInLine first).
func (p *Tracker) check(key int32, now time.Duration, cost int64, adds bool) (allowed bool) {
	if p.pendingKey != 0 {
		p.part()
	}
	k := &p.keys[key]
	p.expire(k, now)
	kept := false // the key's log stays its own
	switch {
	case k.log == 0:
	case p.unit > 0:
		r := &p.recent[k.log-1]
		if kept = k.n > 0 || p.recentHolds(r, now); !kept {
			p.giveUpRecent(k)
		} else if allowed = p.recentAllows(r, now); allowed {
			p.pushRecent(r, now)
		}
	default:
		allowed, kept = p.allowKeyLog(k, now, cost)
	}
	if !kept {
		allowed = cost <= p.limit-k.sum
		switch {
		case !allowed && adds:
			p.ownLog(key) // the log refused it: it keeps the window as it was
		case allowed && !adds:
			p.pending, p.pendingKey = admission{now, cost}, key+1
		}
	}
	if adds {
		p.addExpired(k, key, now, cost)
	}
	return allowed
}

// allowKeyLog is Allow for a key (window k, already expired at now) whose log
// has parted, as a keyWindow of its own. kept is false when the log and the
// window were both empty and the log has been given up: then the key's window
// is its log again, and allowed means nothing.
func (p *Tracker) allowKeyLog(k *keyWindow, now time.Duration, cost int64) (allowed, kept bool) {
	if p.rejoin(k, now) {
		return false, false
	}
	log := &p.logs[k.log-1]
	if cost > p.limit-log.sum {
		return false, true
	}
	p.push(log, admission{now, cost})
	return true, true
}

// rejoin expires k's own log at now and, when it and k's window are both
// empty, gives it up: the key's log is its window again. It reports whether it did.
func (p *Tracker) rejoin(k *keyWindow, now time.Duration) bool {
	log := &p.logs[k.log-1]
	p.expire(log, now)
	if log.n > 0 || k.n > 0 {
		return false
	}
	p.freeLog = append(p.freeLog, k.log-1)
	k.log = 0
	return true
}

// part gives the key of the pending admission a log of its own: its window as
// it is, and the pending admission, which the lane did not add at once.
func (p *Tracker) part() {
	key := p.pendingKey - 1
	p.pendingKey = 0
	if p.unit > 0 {
		p.pushRecent(p.ownRecent(key), p.pending.at)
		return
	}
	p.push(p.ownKeyLog(key), p.pending)
}

// ownLog gives key a log of its own, a copy of its window.
func (p *Tracker) ownLog(key int32) {
	if p.unit > 0 {
		p.ownRecent(key)
	} else {
		p.ownKeyLog(key)
	}
}

// takeLog gives key the log at an index no key holds in logs (p.logs or
// p.recent), empty, and returns the index.
func takeLog[T any](p *Tracker, key int32, logs *[]T) int32 {
	i := p.newLogIndex()
	for int(i) >= len(*logs) {
		*logs = append(*logs, *new(T))
	}
	var empty T
	(*logs)[i] = empty
	p.keys[key].log = i + 1
	return i
}

// newLogIndex is the index of a log no key holds, in logs or recent.
func (p *Tracker) newLogIndex() int32 {
	if n := len(p.freeLog); n > 0 {
		i := p.freeLog[n-1]
		p.freeLog = p.freeLog[:n-1]
		return i
	}
	return int32(max(len(p.logs), len(p.recent)))
}

// ownKeyLog gives key a log of its own, a keyWindow holding a copy of its
// window, and returns it.
func (p *Tracker) ownKeyLog(key int32) *keyWindow {
	i := takeLog(p, key, &p.logs) // before p.logs is read: it may grow it
	k, log := &p.keys[key], &p.logs[i]
	for j := range k.n {
		p.push(log, p.slab.entry(k, j))
	}
	return log
}

// SameCheck reports whether p's cross-check is o's: the same window, limit
// and cost of every request (so that, fed the same requests, the two logs give
// the same verdicts).
func (p *Tracker) SameCheck(o *Tracker) bool {
	return p.window == o.window && p.limit == o.limit && p.unit == o.unit
}
