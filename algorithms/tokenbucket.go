package algorithms

import (
	"fmt"
	"math/bits"
	"time"
)

// TokenBucket holds up to Burst tokens (Policy.EffectiveBurst), refilled
// continuously at Limit tokens per Window, and admits a request of cost units if
// the bucket holds at least cost tokens, which it then spends. It starts full;
// refused requests spend nothing. Refill is lazy: the state is brought up to date
// when a request arrives.
//
// Time is exact. The rate Limit/Window is reduced to lowest terms L'/W', a token
// is W' integer units, and every nanosecond refills L' units, so a token that
// refills at exactly t is there at t, not a nanosecond later, and no float error
// accumulates. In any interval [a, b] the bucket admits at most
// Burst + (b−a)×Limit/Window cost. NewTokenBucket rejects policies whose
// (Burst+1)×W' overflows int64.
//
// RetryAfter is exact: ⌈(cost×W' − units held)/L'⌉ ns, the first instant at which
// the bucket would hold cost tokens if nothing else arrived; a retry one
// nanosecond earlier is refused. Never when cost > Burst. Remaining is the whole
// tokens left; Reset is the time until the bucket is full again.
//
// TokenBucket and GCRA are the same limiter in two representations: on any
// traffic with non-decreasing times they return identical Decisions.
//
// Memory is 16 bytes per key. Times are nanoseconds since the start. A now
// earlier than the last admission refills nothing (it is treated as that
// instant), so time going backwards never admits more; golang.org/x/time/rate
// instead moves its clock back and later refills that span a second time. The
// rule is immutable and safe for concurrent use; each TokenBucketState belongs to
// one goroutine.
type TokenBucket struct {
	pace
	limit int64
	burst int64
	full  int64 // burst×W', the units of a full bucket
}

// TokenBucketState is one key's bucket: 16 bytes. The zero value is a full bucket
// that has never been used.
type TokenBucketState struct {
	deficit int64         // units missing from a full bucket at last
	last    time.Duration // time of the last admission
}

// NewTokenBucket returns a token-bucket rule for p, or every problem with p.
func NewTokenBucket(p Policy) (*TokenBucket, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("token bucket: %w", err)
	}
	tb := &TokenBucket{pace: newPace(p.Limit, p.Window), limit: p.Limit, burst: p.EffectiveBurst()}
	if err := tb.checkScale("burst", tb.burst, 1); err != nil {
		return nil, fmt.Errorf("token bucket: %w", err)
	}
	tb.full = tb.burst * tb.span
	return tb, nil
}

// Decide admits or refuses a request of cost units (cost ≥ 1) at now.
func (tb *TokenBucket) Decide(s *TokenBucketState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("TokenBucket.Decide", cost)
	}
	if now < s.last {
		return tb.decideLate(s, now, cost)
	}
	deficit := tb.deficitAt(s, now)
	d := Decision{Limit: tb.limit, RetryAfterExact: true}
	// allowed wraps harmlessly when cost > burst: that case is decided first.
	switch allowed := tb.full - cost*tb.span; {
	case cost > tb.burst:
		d.Verdict, d.RetryAfter = Refuse, Never
	case deficit > allowed:
		d.Verdict = Refuse
		d.RetryAfter = tb.ceilUnits(deficit - allowed)
	default:
		deficit += cost * tb.span
		s.deficit, s.last = deficit, now
	}
	if deficit < tb.full { // at or over only after a Charge
		d.Remaining = tb.bySpan.div(tb.full - deficit)
	}
	d.Reset = tb.ceilUnits(deficit)
	return d
}

// decideLate decides a request that arrives before the last admission (time
// went backwards) as if it arrived at that admission, so it refills nothing.
func (tb *TokenBucket) decideLate(s *TokenBucketState, now time.Duration, cost int64) Decision {
	late := s.last - now
	d := tb.Decide(s, s.last, cost)
	if d.RetryAfter != 0 && d.RetryAfter != Never {
		d.RetryAfter += late
	}
	d.Reset += late
	return d
}

// Idle reports whether the bucket is full at now, and so decides as a new one.
func (tb *TokenBucket) Idle(s *TokenBucketState, now time.Duration) bool {
	return s.deficit == 0 || (now >= s.last && tb.deficitAt(s, now) == 0)
}

// deficitAt is the units missing at now ≥ s.last. The refill elapsed×L' is
// computed in 128 bits, so a long idle time cannot overflow it.
func (tb *TokenBucket) deficitAt(s *TokenBucketState, now time.Duration) int64 {
	hi, refill := bits.Mul64(uint64(now-s.last), uint64(tb.units))
	if hi != 0 || refill >= uint64(s.deficit) {
		return 0
	}
	return s.deficit - int64(refill)
}
