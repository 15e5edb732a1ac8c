package sim

import (
	"time"
	"unsafe"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/engine"
)

// directPath is the lane's quick path (quickPath) when its one limit is a
// dense table whose algorithm admits by its verdict alone (algorithms.Admitter)
// or gives its verdict and delay alone (a leaky bucket's Queue): the verdict,
// the refusal with its Retry-After (algorithms.Answerer) and the Decision,
// each one call on the table, built alike for every algorithm of the registry
// (dense.direct), so that no list of algorithms is kept here. (A concrete call
// per algorithm, by a switch over six of them, ran within 3% of it.) The zero
// value is none.
type directPath struct {
	t directTable
	// late is t's delays, asked once.
	late bool
}

// directTable is a dense table's direct path (dense.direct).
type directTable interface {
	admit(key int32, now time.Duration, cost int64) (delay time.Duration, ok bool)
	admitNow(key int32, now time.Duration, cost int64) bool
	delays() bool
	answer(key int32, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool)
	decide(d *algorithms.Decision, key int32, now time.Duration, cost int64)
	unused(key int32) int64
}

// directPathOf is limit's directPath: none when limit is nil or takes none.
func directPathOf(limit decider) directPath {
	if t, ok := limit.(interface{ direct() directTable }); ok {
		dt := t.direct()
		return directPath{t: dt, late: dt != nil && dt.delays()}
	}
	return directPath{}
}

func (p *directPath) known() bool { return p.t != nil }

// delays reports whether admit may admit late (a Queue): the kernel then asks
// it for a request admitNow did not admit, which it may delay, before decide.
// False when there is no direct path.
func (p *directPath) delays() bool { return p.late }

// attemptDirect is attempt's decision for request r of client c at now when
// the lane has a direct path and no trace: the quick path's, with one interface call.
func (l *lane) attemptDirect(r, c int32, now time.Duration, atRetryAfter bool) {
	cost, key, p := l.reqs.all[r].cost, l.pop.keyOf[0][c], &l.direct
	if delay, ok := p.admit(key, now, cost); ok {
		l.admitLate(r, delay, atRetryAfter)
		return
	}
	d := &l.dec
	p.decide(d, l.quick, key, now, cost)
	answer, quota, refused := l.decideOnly(*d)
	l.act(r, answer, quota, refused, atRetryAfter)
}

// admit is the direct path's verdict alone on a request of cost for key at
// now, the state changed as Decide would change it on an admission: ok, and
// the delay before the request leaves (0 but in a leaky bucket's queue).
func (p *directPath) admit(key int32, now time.Duration, cost int64) (delay time.Duration, ok bool) {
	return p.t.admit(key, now, cost)
}

// admitNow is admit's verdict on an admission at once: true, the state
// changed as Decide would change it, or false and nothing changed, Decide
// then giving the answer (a delay too). For the kernel, which has no
// release to schedule.
func (p *directPath) admitNow(key int32, now time.Duration, cost int64) bool {
	return p.t.admitNow(key, now, cost)
}

// answer is admit and, for a request it does not admit, the refusal with its
// Retry-After where the limit tells one without a Decision
// (algorithms.Answerer), the state then left as decide leaves it (a refusal
// the product counts is counted); neither admitted nor refused leaves the
// answer to decide. For callers that keep no headers.
func (p *directPath) answer(key int32, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool) {
	return p.t.answer(key, now, cost)
}

// decide fills d with the direct path's Decision on a request of cost for key
// at now, or quick's when there is no direct path (the kernel's Admitters).
// d is filled in place: a Decision copied whole from where a call left it
// costs more than the call.
func (p *directPath) decide(d *algorithms.Decision, quick admitter, key int32, now time.Duration, cost int64) {
	if p.t == nil {
		*d = quick.decide(key, now, cost)
		return
	}
	p.t.decide(d, key, now, cost)
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
	if l.cols != nil {
		l.columnOf(r, delay)
	}
	l.m.delayed(now, delay, l.pop.groupOf[req.client])
	l.eng.ScheduleInOrder(later(now, delay), evRelease, r, 0)
}

// warm reads, together, the records an arrival of client c goes on to touch
// one after another: its client state, its group (if there are several), its
// key's limiter state and window (if the first limit has several keys: one
// key's stay in the cache).
// Once 100,000 keys' state has left the cache, their cache misses then overlap
// instead of following each other. What it reads is thrown away (warmth).
// Only a lane whose state leaves the cache (warmFrom clients or keys: cold)
// is to call it: in the cache the reads cost more than they save.
func (l *lane) warm(c int32) {
	w := l.clients[c].requests
	if l.pop.keys[0].len() > 1 { // one key's state is in the cache already
		key := l.pop.keyOf[0][c]
		w += int64(l.m.peak.Held(key))
		if l.direct.t != nil {
			w += l.direct.t.unused(key)
		}
	}
	if len(l.pop.groups) > 1 {
		w += int64(l.pop.groupOf[c])
	}
	l.warmth += w
}

// warmNext reads ahead, while the event just popped is handled, what the next
// ones touch: the client state behind the request of the event now earliest
// (its request read when it was among the next), and the requests of the
// events that may come after it. With millions pending each read misses the
// cache, and the misses overlap the handling instead of each starting an event.
func (l *lane) warmNext() {
	if next, ok := l.eng.Top(); ok && isRequestEvent(next.Kind()) {
		c := l.reqs.all[next.A].client
		l.warmth += l.clients[c].requests + int64(l.pop.groupOf[c])
		if l.retryRnd != nil {
			l.warmth += int64(l.retryRnd[c].Touch())
		}
	}
	for i := 1; i <= 4; i++ {
		if ev, ok := l.eng.Soon(i); ok && isRequestEvent(ev.Kind()) {
			l.warmth += l.reqs.all[ev.A].num
		}
	}
}

// isRequestEvent reports whether an event of kind k is a request's (its A the request).
func isRequestEvent(k engine.Kind) bool {
	return k == evAttempt || k == evRelease || k == evComplete
}

// direct is d's direct path: its algorithm's Admit (and Answer, if it has
// one, and its Queue for admit, if it delays), or its Queue; nil when it has
// neither.
func (d *dense[S]) direct() directTable {
	if d.quick != nil {
		answers, _ := d.alg.(algorithms.Answerer[S])
		queue, _ := d.alg.(queuer[S])
		return &directAdmits[S]{d, answers, queue}
	}
	if q, ok := d.alg.(queuer[S]); ok {
		return &directQueues[S]{d, q}
	}
	return nil
}

// queuer is an algorithm that gives its verdict and delay alone (algorithms.LeakyBucket.Queue).
type queuer[S any] interface {
	Queue(s *S, now time.Duration, cost int64) (delay time.Duration, ok bool)
}

// queues reports whether d's algorithm is a queuer: one that may delay (fastDelays).
func (d *dense[S]) queues() bool {
	_, ok := d.alg.(queuer[S])
	return ok
}

// directAdmits is the direct path of an Admitter's table; answers is its
// algorithm if it is an Answerer, queue if it also delays (Traefik).
type directAdmits[S any] struct {
	d       *dense[S]
	answers algorithms.Answerer[S]
	queue   queuer[S]
}

func (t *directAdmits[S]) admit(key int32, now time.Duration, cost int64) (time.Duration, bool) {
	if t.queue != nil {
		return t.queue.Queue(&t.d.states[key], now, cost)
	}
	return 0, t.d.quick.Admit(&t.d.states[key], now, cost)
}

func (t *directAdmits[S]) delays() bool { return t.queue != nil }

func (t *directAdmits[S]) admitNow(key int32, now time.Duration, cost int64) bool {
	return t.d.quick.Admit(&t.d.states[key], now, cost)
}

func (t *directAdmits[S]) answer(key int32, now time.Duration, cost int64) (time.Duration, bool, bool) {
	if t.answers != nil {
		return t.answers.Answer(&t.d.states[key], now, cost)
	}
	return 0, t.d.quick.Admit(&t.d.states[key], now, cost), false
}

func (t *directAdmits[S]) decide(d *algorithms.Decision, key int32, now time.Duration, cost int64) {
	*d = t.d.alg.Decide(&t.d.states[key], now, cost)
}

func (t *directAdmits[S]) unused(key int32) int64 { return firstByte(&t.d.states[key]) }

// directQueues is the direct path of a queue's table.
type directQueues[S any] struct {
	d     *dense[S]
	queue queuer[S]
}

func (t *directQueues[S]) admit(key int32, now time.Duration, cost int64) (time.Duration, bool) {
	return t.queue.Queue(&t.d.states[key], now, cost)
}

func (t *directQueues[S]) delays() bool { return true }

// admitNow leaves every answer to decide: a queue is never in the kernel,
// which alone asks it.
func (t *directQueues[S]) admitNow(int32, time.Duration, int64) bool { return false }

func (t *directQueues[S]) answer(key int32, now time.Duration, cost int64) (time.Duration, bool, bool) {
	_, admitted := t.queue.Queue(&t.d.states[key], now, cost)
	return 0, admitted, false
}

func (t *directQueues[S]) decide(d *algorithms.Decision, key int32, now time.Duration, cost int64) {
	*d = t.d.alg.Decide(&t.d.states[key], now, cost)
}

func (t *directQueues[S]) unused(key int32) int64 { return firstByte(&t.d.states[key]) }

// firstByte reads s's first byte: a read warm keeps, whatever S is.
func firstByte[S any](s *S) int64 {
	if unsafe.Sizeof(*s) == 0 {
		return 0
	}
	return int64(*(*byte)(unsafe.Pointer(s)))
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
