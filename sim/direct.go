package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// directPath is the lane's quick path (quickPath) when its limit is a token
// bucket, GCRA or fixed window: the concrete table and rule, so that an attempt
// calls the algorithm directly rather than through two interfaces (decider, then
// algorithms.Algorithm). At most one table is set; the zero value is none.
type directPath struct {
	bucket     *dense[algorithms.TokenBucketState]
	bucketRule *algorithms.TokenBucket
	gcra       *dense[algorithms.GCRAState]
	gcraRule   *algorithms.GCRA
	window     *dense[algorithms.FixedWindowState]
	windowRule *algorithms.FixedWindow
}

// directPathOf is quick's directPath: none when quick is nil or of another type.
func directPathOf(quick admitter) directPath {
	switch t := quick.(type) {
	case *dense[algorithms.TokenBucketState]:
		return directPath{bucket: t, bucketRule: t.alg.(*algorithms.TokenBucket)}
	case *dense[algorithms.GCRAState]:
		return directPath{gcra: t, gcraRule: t.alg.(*algorithms.GCRA)}
	case *dense[algorithms.FixedWindowState]:
		return directPath{window: t, windowRule: t.alg.(*algorithms.FixedWindow)}
	}
	return directPath{}
}

func (p *directPath) known() bool {
	return p.bucket != nil || p.gcra != nil || p.window != nil
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
	default:
		s := &p.window.states[key]
		if p.windowRule.Admit(s, now, cost) {
			l.admitAtOnce(r, atRetryAfter)
			return
		}
		d = p.windowRule.Decide(s, now, cost)
	}
	answer, quota, refused := l.decideOnly(d)
	l.act(r, answer, quota, refused, atRetryAfter)
}

// warm reads, together, the records an arrival of client c goes on to touch
// one after another: its group, its client state, its key's limiter state and
// window.
// Once 100,000 keys' state has left the cache, their cache misses then overlap
// instead of following each other. What it reads is thrown away (warmth).
func (l *lane) warm(c int32) {
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

// warmFrom is how many clients a superposed group needs for warmAhead to pay:
// with fewer, their state (some 100 B each) stays in a 1 MiB cache.
const warmFrom = 1 << 14
