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
	if delay, ok := p.admit(key, now, cost); ok {
		l.admitLate(r, delay, atRetryAfter)
		return
	}
	var d algorithms.Decision
	p.decide(&d, l.quick, key, now, cost)
	answer, quota, refused := l.decideOnly(d)
	l.act(r, answer, quota, refused, atRetryAfter)
}

// admit is the direct path's verdict alone on a request of cost for key at
// now, the state changed as Decide would change it on an admission: ok, and
// the delay before the request leaves (0 but in a leaky bucket's queue).
func (p *directPath) admit(key int32, now time.Duration, cost int64) (delay time.Duration, ok bool) {
	switch {
	case p.bucket != nil:
		return 0, p.bucketRule.Admit(&p.bucket.states[key], now, cost)
	case p.gcra != nil:
		return 0, p.gcraRule.Admit(&p.gcra.states[key], now, cost)
	case p.window != nil:
		return 0, p.windowRule.Admit(&p.window.states[key], now, cost)
	case p.leaky != nil:
		return p.leakyRule.Queue(&p.leaky.states[key], now, cost)
	case p.log != nil:
		return 0, p.logRule.Admit(&p.log.states[key], now, cost)
	default:
		return 0, p.counterRule.Admit(&p.counter.states[key], now, cost)
	}
}

// answer is admit and, for a request it does not admit, the refusal with its
// Retry-After where the limit tells one without a Decision
// (algorithms.Answerer); neither admitted nor refused leaves the answer to
// decide. For callers that keep no headers.
func (p *directPath) answer(key int32, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool) {
	switch {
	case p.bucket != nil:
		return p.bucketRule.Answer(&p.bucket.states[key], now, cost)
	case p.gcra != nil:
		return p.gcraRule.Answer(&p.gcra.states[key], now, cost)
	case p.window != nil:
		return p.windowRule.Answer(&p.window.states[key], now, cost)
	}
	_, admitted = p.admit(key, now, cost)
	return 0, admitted, false
}

// decide fills d with the direct path's Decision on a request of cost for key
// at now, or quick's when sim does not know its type (the kernel's Admitters).
// d is filled in place: a Decision copied whole from where a call left it
// costs more than the call.
func (p *directPath) decide(d *algorithms.Decision, quick admitter, key int32, now time.Duration, cost int64) {
	switch {
	case p.bucket != nil:
		*d = p.bucketRule.Decide(&p.bucket.states[key], now, cost)
	case p.gcra != nil:
		*d = p.gcraRule.Decide(&p.gcra.states[key], now, cost)
	case p.window != nil:
		*d = p.windowRule.Decide(&p.window.states[key], now, cost)
	case p.leaky != nil:
		*d = p.leakyRule.Decide(&p.leaky.states[key], now, cost)
	case p.log != nil:
		*d = p.logRule.Decide(&p.log.states[key], now, cost)
	case p.counter != nil:
		*d = p.counterRule.Decide(&p.counter.states[key], now, cost)
	default:
		*d = quick.decide(key, now, cost)
	}
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
	now := l.eng.Now()
	l.m.delayed(now, delay, l.pop.groupOf[req.client])
	l.eng.ScheduleInOrder(later(now, delay), evRelease, r, 0)
}

// warm reads, together, the records an arrival of client c goes on to touch
// one after another: its group, its client state, its key's limiter state and
// window.
// Once 100,000 keys' state has left the cache, their cache misses then overlap
// instead of following each other. What it reads is thrown away (warmth).
// Only a lane whose state leaves the cache (warmFrom clients or keys: cold)
// is to call it: in the cache the reads cost more than they save.
func (l *lane) warm(c int32) {
	key := l.pop.keyOf[0][c]
	w := l.clients[c].requests + int64(l.m.peak.Held(key)) + int64(l.pop.groupOf[c])
	p := &l.direct
	switch {
	case p.bucket != nil:
		w += unused(p.bucket.states, key)
	case p.gcra != nil:
		w += unused(p.gcra.states, key)
	case p.window != nil:
		w += unused(p.window.states, key)
	case p.leaky != nil:
		w += unused(p.leaky.states, key)
	case p.counter != nil:
		w += unused(p.counter.states, key)
	}
	l.warmth += w
}

// unused is 1 when key's state is the zero value, else 0: a read warm keeps.
func unused[S comparable](states []S, key int32) int64 {
	var zero S
	if states[key] == zero {
		return 1
	}
	return 0
}

// warmAhead warms (see warm) the clients the next warmBatch arrivals of the
// superposed group whose first client is first will pick, read from a copy of
// its stream st (which it leaves as it is), all at once: their cache misses
// overlap, one wait for the batch instead of one per arrival. A guess that
// another event comes between costs only the reads.
func (l *lane) warmAhead(first int32, st *arrivalState, n int) {
	ahead := *st
	for range warmBatch {
		ahead.rnd.Exp1()
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
