package sim

import (
	"github.com/rlsim/rlsim/algorithms"
)

// quickPath is the lane's one limit when a verdict alone decides an admission
// (algorithms.Admitter): one limit in the chain, counting every client, not a
// shadow, no trace to write and no pacing client to read its headers. Then an
// attempt the limit admits at once needs no Decision; any other goes through
// decideChain. Nil otherwise.
func (l *lane) quickPath() admitter {
	if !l.answerUnread() {
		return nil
	}
	if q, ok := l.chain[0].(admitter); ok && q.admits() {
		return q
	}
	return nil
}

// answerUnread reports whether nobody reads the answer of the lane's chain
// beyond its verdict and delay: one limit in the chain, counting every client,
// not a shadow, no trace to write and no pacing client to read its headers.
func (l *lane) answerUnread() bool {
	if l.trace != nil || len(l.chain) != 1 || l.shadow[0] || l.pop.scoped || l.concs != nil {
		return false
	}
	if !l.cfg.Limits[0].NoHeaders {
		for _, g := range l.pop.groups {
			if g.Pace {
				return false
			}
		}
	}
	return true
}

// admitAtOnce is act for an attempt of request r the lane's one limit admitted
// without delay, with nothing to record.
func (l *lane) admitAtOnce(r int32, atRetryAfter bool) {
	if l.cols != nil {
		l.columnOf(r, 0)
	}
	l.slidingLogCheck(l.reqs.all[r].client, l.reqs.all[r].cost, true)
	if atRetryAfter {
		l.m.retryAfterSucceeded()
	}
	l.admit(r)
}

// setQuickPath sets quick (quickPath) and direct, the one limit's direct path
// when nobody reads more than its verdict and delay and it has one.
func (l *lane) setQuickPath() {
	l.quick, l.direct = l.quickPath(), directPath{}
	if l.fleet != nil {
		l.fleet.setStoreQuick()
	}
	if quickOff {
		l.quick, l.quickRefusal = nil, nil
		return
	}
	l.quickRefusal, _ = l.quick.(refuser)
	if l.answerUnread() && !directOff {
		l.direct = directPathOf(l.chain[0])
	}
}

// decideOnly is decideChain's answer for a chain of one limit that counts every
// client and is not a shadow (the quick path's chain), given that limit's answer d.
func (l *lane) decideOnly(d algorithms.Decision) (answer algorithms.Decision, quota int, refused bool) {
	l.shadowed = -1
	if d.Verdict == algorithms.Refuse {
		return d, 0, true
	}
	answer, quota = d, 0
	if l.cfg.Limits[0].NoHeaders {
		answer, quota = algorithms.Decision{}, -1
	}
	answer.Delay = max(0, d.Delay)
	if answer.Delay > 0 {
		answer.Verdict = algorithms.Delay
	}
	return answer, quota, false
}
