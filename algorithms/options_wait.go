package algorithms

import (
	"errors"
	"fmt"
	"time"
)

// Reserving is a rule that can hold a refused request for its turn instead of
// refusing it: Reserve(s, now, cost, maxWait) decides as Decide does, except a
// request Decide would refuse with RetryAfter r ≤ maxWait (r ≠ Never): it is
// charged at now and answered Delay with Delay = r, Remaining 0 and the
// charged state's Reset. That is exact only for a rule whose Charge at now is
// the request's reservation for its turn: TokenBucket (its tokens go into
// debt, as x/time/rate's Reservation takes them) and GCRA (its TAT is pushed
// on by cost×T), and the wrappers of them that pass Reserve through (Start,
// Wait).
type Reserving[S any] interface {
	Chargeable[S]
	Reserve(s *S, now time.Duration, cost int64, maxWait time.Duration) Decision
}

var (
	_ Reserving[TokenBucketState] = (*TokenBucket)(nil)
	_ Reserving[GCRAState]        = (*GCRA)(nil)
	_ Reserving[TokenBucketState] = (*Wait[TokenBucketState])(nil)
	_ Reserving[GCRAState]        = (*Start[GCRAState])(nil)
)

// Wait lets a request that would be refused wait up to Max for its turn
// instead, and refuses it, unchanged, when its turn is further away. Products
// that behave so:
//
//   - golang.org/x/time/rate v0.x: Limiter.ReserveN(t, n) takes the tokens at
//     t, into debt, and Reservation.DelayFrom(t) is the wait; WaitN waits it
//     unless the context's deadline comes first (rate.go).
//   - Traefik 2.x/3.x RateLimit middleware: Reserve, and if the delay is above
//     maxDelay, Cancel (the tokens come back) and answer 429, else sleep the
//     delay (pkg/middlewares/ratelimiter/rate_limiter.go; maxDelay is
//     1/(2×average) per second, or 500ms below 1 request per second).
//   - Resilience4j 2.x RateLimiter timeoutDuration: a thread waits for
//     permission at most that long, else it is refused
//     (resilience4j.readme.io/docs/ratelimiter). Guava's
//     RateLimiter.tryAcquire(permits, timeout) bounds the wait alike but is
//     not this rule: it lets a request go at once and charges its wait to the
//     next caller (SmoothRateLimiter.reserveEarliestAvailable).
//
// A request the inner rule refuses with RetryAfter r ≤ Max is admitted late:
// Verdict Delay, Delay = r exactly (the first nanosecond at or after its
// turn), and the inner rule is charged at now, which for a bucket is the same
// as reserving the request at its exact turn, now + (missing tokens)×T, a
// fraction of a nanosecond before now + r at most. A request whose RetryAfter
// is Never or above Max is refused as the inner rule refuses it, and changes
// nothing. So no Delay exceeds Max, and a waiting request is admitted at its
// turn: the bare rule would admit the same request at now+Delay and refuse it
// 1ns earlier (options_wait_test.go). Max may be Never: every request that any wait
// can admit is delayed, as x/time/rate's ReserveN.
//
// WithWait refuses, with an error saying why, a rule whose Charge at now is
// not that reservation: a window counter (FixedWindow, SlidingWindowCounter,
// AlignedFixedWindow) would count the waiting request in the window it arrives
// in, not in the one it is admitted in; a SlidingLog would log it at its
// arrival and so expire it early; a LeakyBucket queues already (its Delay is
// its wait and Burst bounds it). Clock, Penalty and Ban wrap a Wait instead:
// WithClock(WithWait(tb, max), tick) waits on the product's clock.
type Wait[S any] struct {
	inner Reserving[S]
	max   time.Duration
}

// WithWait returns inner with waits of up to maxWait; maxWait must be
// positive (Never: unbounded) and inner a Reserving rule.
func WithWait[S any](inner Chargeable[S], maxWait time.Duration) (*Wait[S], error) {
	r, ok := inner.(Reserving[S])
	if !ok {
		return nil, fmt.Errorf("wait: %s", cannotReserve(inner))
	}
	if maxWait <= 0 {
		return nil, fmt.Errorf("wait: the longest wait must be positive, got %v", maxWait)
	}
	return &Wait[S]{inner: r, max: maxWait}, nil
}

// cannotReserve says why rule cannot hold a request for its turn.
func cannotReserve(rule any) string {
	why := "it does not implement Reserving (only TokenBucket and GCRA do)"
	switch rule.(type) {
	case *FixedWindow, *SlidingWindowCounter, *AlignedFixedWindow:
		why = "a window counter would count the waiting request in the window it arrives in, not in the one it is admitted in"
	case *SlidingLog:
		why = "a sliding log would log the waiting request at its arrival, so it would expire before its turn's window is over"
	case *LeakyBucket:
		why = "a leaky bucket queues already: its Delay is its wait, and burst bounds it"
	case interface{ outsideWait() }:
		why = "penalty, ban and clock go around a wait, not inside it: WithPenalty(WithWait(bucket, max)), WithClock(WithWait(…), tick)"
	}
	return fmt.Sprintf("%T cannot wait for a request's turn: %s", rule, why)
}

// Decide is Reserve with waits of up to Max.
func (w *Wait[S]) Decide(s *S, now time.Duration, cost int64) Decision {
	return w.inner.Reserve(s, now, cost, w.max)
}

// Reserve is the inner rule's Reserve with waits of up to the smaller of maxWait and Max.
func (w *Wait[S]) Reserve(s *S, now time.Duration, cost int64, maxWait time.Duration) Decision {
	return w.inner.Reserve(s, now, cost, min(maxWait, w.max))
}

// Charge is the inner rule's.
func (w *Wait[S]) Charge(s *S, now time.Duration, cost int64) { w.inner.Charge(s, now, cost) }

// Peek is the Decision Decide would return, with s left as it is.
func (w *Wait[S]) Peek(s *S, now time.Duration, cost int64) Decision {
	if r, ok := w.inner.(reservePeeker[S]); ok {
		return r.peekReserve(s, now, cost, w.max)
	}
	c := *s
	return w.inner.Reserve(&c, now, cost, w.max)
}

// Idle is the inner rule's.
func (w *Wait[S]) Idle(s *S, now time.Duration) bool { return w.inner.Idle(s, now) }

// Filling is a bucket whose level can be set: TokenBucket and GCRA.
// FillTo(s, now, tokens) makes s a bucket holding tokens (0 ≤ tokens ≤
// Capacity()) at now, refilling from then on; Capacity is Burst.
type Filling[S any] interface {
	Reserving[S]
	FillTo(s *S, now time.Duration, tokens int64)
	Capacity() int64
	unseen(s *S) bool // s is the zero state, a never-seen key
	peekFrom(s *S, fill bool, tokens int64, now time.Duration, cost int64, maxWait time.Duration) Decision
}

var (
	_ Filling[TokenBucketState] = (*TokenBucket)(nil)
	_ Filling[GCRAState]        = (*GCRA)(nil)
)

// Start is a bucket that a new key finds holding Tokens instead of full. The
// rule: a request (Decide, Reserve, Charge) that finds the key forgotten first
// sets it to hold Tokens at now, and is then decided as the bucket decides. A
// key is forgotten when it was never seen, or when its bucket has been full
// for longer than Keep (full at now − Keep − 1ns): as a store forgets a key
// that expires Keep after its bucket refilled. Idle is exactly "forgotten",
// so Keyed may evict it and eviction never changes a decision.
//
//   - Keep = Never: a key is never forgotten once seen (an in-memory product
//     holding a limiter per key: Bucket4j 8.x local buckets with
//     Bandwidth.withInitialTokens(n), bucket4j.com reference, "Initial
//     tokens"; Guava 33's SmoothBursty starts with storedPermits 0 at its
//     creation, SmoothRateLimiter.java, its level though not its rule). Keyed
//     never evicts such a key.
//   - Keep = d > 0: Bucket4j's distributed buckets with
//     ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(d),
//     and Redis scripts whose key's EXPIRE is the time to refill plus d.
//   - Keep = 0: forgotten 1ns after it is full (EXPIRE = time to refill):
//     a request at the nanosecond the bucket is full again still finds it so,
//     which is what makes every RetryAfter (the bucket's own) exact: the
//     retry at now+RetryAfter meets the bucket before it is forgotten.
//
// Tokens = Burst is the bare bucket whatever Keep. Tokens = 0 is an empty
// bucket, which admits its first unit request T = Window/Limit after its first
// request. A refused first request still sets the level (the key exists from
// its first request).
type Start[S any] struct {
	inner  Filling[S]
	tokens int64
	keep   time.Duration
	full   bool // tokens = Burst: the bare bucket, never refilled by Start
}

// StartAt returns inner whose new keys hold tokens, 0 (empty) ≤ tokens ≤ Burst
// (full, the bare bucket), and which forgets a key full for keep ≥ 0 (Never:
// never). inner must be a Filling bucket (TokenBucket, GCRA).
func StartAt[S any](inner Chargeable[S], tokens int64, keep time.Duration) (*Start[S], error) {
	f, ok := inner.(Filling[S])
	if !ok {
		return nil, fmt.Errorf("start: %T has no level to start at (only TokenBucket and GCRA do)", inner)
	}
	var errs []error
	if tokens < 0 || tokens > f.Capacity() {
		errs = append(errs, fmt.Errorf("start: level must be between 0 (empty) and the burst %d (full), got %d", f.Capacity(), tokens))
	}
	if keep < 0 {
		errs = append(errs, fmt.Errorf("start: keep must not be negative, got %v", keep))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return &Start[S]{inner: f, tokens: tokens, keep: keep, full: tokens == f.Capacity()}, nil
}

// forgotten reports whether s was never seen or has been full for longer than Keep at now.
func (st *Start[S]) forgotten(s *S, now time.Duration) bool {
	return st.inner.unseen(s) || (st.keep != Never && st.inner.Idle(s, now-st.keep-1))
}

// fill sets a forgotten s to the starting level at now.
func (st *Start[S]) fill(s *S, now time.Duration) {
	if !st.full && st.forgotten(s, now) {
		st.inner.FillTo(s, now, st.tokens)
	}
}

// Decide decides as the bucket, a forgotten key first set to the starting level.
func (st *Start[S]) Decide(s *S, now time.Duration, cost int64) Decision {
	st.fill(s, now)
	return st.inner.Decide(s, now, cost)
}

// Reserve is the bucket's Reserve, a forgotten key first set to the starting level.
func (st *Start[S]) Reserve(s *S, now time.Duration, cost int64, maxWait time.Duration) Decision {
	st.fill(s, now)
	return st.inner.Reserve(s, now, cost, maxWait)
}

// Charge is the bucket's Charge, a forgotten key first set to the starting level.
func (st *Start[S]) Charge(s *S, now time.Duration, cost int64) {
	st.fill(s, now)
	st.inner.Charge(s, now, cost)
}

// Peek is the Decision Decide would return, with s left as it is.
func (st *Start[S]) Peek(s *S, now time.Duration, cost int64) Decision { return st.peek(s, now, cost) }

// Idle reports whether the key is forgotten at now (and so from then on).
func (st *Start[S]) Idle(s *S, now time.Duration) bool {
	if st.full {
		return st.inner.Idle(s, now)
	}
	return st.forgotten(s, now)
}

// FillTo is the bucket's.
func (st *Start[S]) FillTo(s *S, now time.Duration, tokens int64) { st.inner.FillTo(s, now, tokens) }

// Capacity is the bucket's.
func (st *Start[S]) Capacity() int64 { return st.inner.Capacity() }

func (st *Start[S]) unseen(s *S) bool { return st.inner.unseen(s) }

// forgetful is a rule that may forget a key back to a level below a
// request's cost: a Start below the burst, or a rule wrapping one.
type forgetful interface{ mayForget() bool }

// mayForget reports whether r is forgetful.
func mayForget(r any) bool {
	f, ok := r.(forgetful)
	return ok && f.mayForget()
}

func (st *Start[S]) mayForget() bool  { return !st.full }
func (w *Wait[S]) mayForget() bool    { return mayForget(w.inner) }
func (p *Penalty[S]) mayForget() bool { return mayForget(p.inner) }
