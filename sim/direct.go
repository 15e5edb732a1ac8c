package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// directPath is the lane's quick path (quickPath) when its limit is a token
// bucket, GCRA, fixed window, sliding log or sliding window counter: the
// concrete table and rule, so that an attempt calls the algorithm directly
// rather than through two interfaces (decider, then algorithms.Algorithm). It
// is also the leaky bucket's, which is no Admitter but gives its verdict and
// delay alone (Queue) on the same conditions. At most one table is set; the
// zero value is none.
type directPath struct {
	bucket      *dense[algorithms.TokenBucketState]
	bucketRule  *algorithms.TokenBucket
	gcra        *dense[algorithms.GCRAState]
	gcraRule    *algorithms.GCRA
	window      *dense[algorithms.FixedWindowState]
	windowRule  *algorithms.FixedWindow
	log         *dense[algorithms.SlidingLogState]
	logRule     *algorithms.SlidingLog
	counter     *dense[algorithms.SlidingWindowCounterState]
	counterRule *algorithms.SlidingWindowCounter
	leaky       *dense[algorithms.LeakyBucketState]
	leakyRule   *algorithms.LeakyBucket
}

// directPathOf is limit's directPath: none when limit is nil or of another type.
func directPathOf(limit decider) directPath {
	switch t := limit.(type) {
	case *dense[algorithms.TokenBucketState]:
		return directPath{bucket: t, bucketRule: t.alg.(*algorithms.TokenBucket)}
	case *dense[algorithms.GCRAState]:
		return directPath{gcra: t, gcraRule: t.alg.(*algorithms.GCRA)}
	case *dense[algorithms.FixedWindowState]:
		return directPath{window: t, windowRule: t.alg.(*algorithms.FixedWindow)}
	case *dense[algorithms.SlidingLogState]:
		return directPath{log: t, logRule: t.alg.(*algorithms.SlidingLog)}
	case *dense[algorithms.SlidingWindowCounterState]:
		return directPath{counter: t, counterRule: t.alg.(*algorithms.SlidingWindowCounter)}
	case *dense[algorithms.LeakyBucketState]:
		return directPath{leaky: t, leakyRule: t.alg.(*algorithms.LeakyBucket)}
	}
	return directPath{}
}

func (p *directPath) known() bool {
	return p.bucket != nil || p.gcra != nil || p.window != nil || p.log != nil || p.counter != nil || p.leaky != nil
}

// attemptDirect is attempt's decision for request r of client c at now when
// the lane has a direct path and no trace: the quick path's, with no interface call.
func (l *lane) attemptDirect(r, c int32, now time.Duration, atRetryAfter bool) {
	cost, key, p := l.reqs.all[r].cost, l.pop.keyOf[0][c], &l.direct
	var d algorithms.Decision
	switch {
	case p.bucket != nil:
		s := &p.bucket.states[key]
		if p.bucketRule.Admit(s, now, cost) {
			l.admitAtOnce(r, atRetryAfter)
			return
		}
		d = p.bucketRule.Decide(s, now, cost)
	case p.gcra != nil:
		s := &p.gcra.states[key]
		if p.gcraRule.Admit(s, now, cost) {
			l.admitAtOnce(r, atRetryAfter)
			return
		}
		d = p.gcraRule.Decide(s, now, cost)
	case p.window != nil:
		s := &p.window.states[key]
		if p.windowRule.Admit(s, now, cost) {
			l.admitAtOnce(r, atRetryAfter)
			return
		}
		d = p.windowRule.Decide(s, now, cost)
	case p.leaky != nil:
		s := &p.leaky.states[key]
		if delay, ok := p.leakyRule.Queue(s, now, cost); ok {
			l.admitLate(r, delay, atRetryAfter)
			return
		}
		d = p.leakyRule.Decide(s, now, cost)
	case p.log != nil:
		s := &p.log.states[key]
		if p.logRule.Admit(s, now, cost) {
			l.admitAtOnce(r, atRetryAfter)
			return
		}
		d = p.logRule.Decide(s, now, cost)
	default:
		s := &p.counter.states[key]
		if p.counterRule.Admit(s, now, cost) {
			l.admitAtOnce(r, atRetryAfter)
			return
		}
		d = p.counterRule.Decide(s, now, cost)
	}
	answer, quota, refused := l.decideOnly(d)
	l.act(r, answer, quota, refused, atRetryAfter)
}

// admitLate is act for an attempt of request r the lane's one limit admitted
// after delay (at once if 0), with nothing to record: quickPath's conditions
// leave no header for a pacing client to read.
func (l *lane) admitLate(r int32, delay time.Duration, atRetryAfter bool) {
	if delay == 0 {
		l.admitAtOnce(r, atRetryAfter)
		return
	}
	req := &l.reqs.all[r]
	l.slidingLogCheck(req.client, req.cost, true)
	if atRetryAfter {
		l.m.retryAfterSucceeded()
	}
	now := l.eng.now
	l.m.delayed(now, delay, l.pop.groupOf[req.client])
	l.eng.scheduleInOrder(later(now, delay), evRelease, r, 0)
}

// warm reads, together, the records an arrival of client c goes on to touch
// one after another: its group, its client state, its key's limiter state and
// window.
// Once 100,000 keys' state has left the cache, their cache misses then overlap
// instead of following each other. What it reads is thrown away (warmth).
// A lane whose state stays in the cache (fewer than warmFrom clients and
// keys: not cold) reads nothing: there the reads cost more than they save.
func (l *lane) warm(c int32) {
	if !l.cold {
		return
	}
	key := l.pop.keyOf[0][c]
	w := l.clients[c].requests + int64(l.m.peak.keys[key].n) + int64(l.pop.groupOf[c])
	p := &l.direct
	switch {
	case p.bucket != nil:
		if p.bucket.states[key] == (algorithms.TokenBucketState{}) {
			w++
		}
	case p.gcra != nil:
		if p.gcra.states[key] == (algorithms.GCRAState{}) {
			w++
		}
	case p.window != nil:
		if p.window.states[key] == (algorithms.FixedWindowState{}) {
			w++
		}
	case p.leaky != nil:
		if p.leaky.states[key] == (algorithms.LeakyBucketState{}) {
			w++
		}
	case p.counter != nil:
		if p.counter.states[key] == (algorithms.SlidingWindowCounterState{}) {
			w++
		}
	}
	l.warmth += w
}

// warmAhead warms (see warm) the clients the next warmBatch arrivals of the
// superposed group whose first client is first will pick, read from a copy of
// its stream st (which it leaves as it is), all at once: their cache misses
// overlap, one wait for the batch instead of one per arrival. A guess that
// another event comes between costs only the reads.
func (l *lane) warmAhead(first int32, st *arrivalState, n int) {
	ahead := *st
	for range warmBatch {
		ahead.rnd.exp1()
		l.warm(first + ahead.pick(n))
	}
	l.warmed = warmBatch
}

// warmBatch is how many arrivals warmAhead warms at once.
const warmBatch = 8

// warmFrom is how many clients a superposed group needs for warmAhead to pay,
// and how many clients or keys a lane needs for warm to: with fewer, their
// state (some 100 B each) stays in a 1 MiB cache.
const warmFrom = 1 << 14
