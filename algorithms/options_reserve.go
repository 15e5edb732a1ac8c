package algorithms

import "time"

// Reserve is Decide, except that a request refused with RetryAfter r ≤
// maxWait (r ≠ Never) is charged at now, its tokens taken into debt as
// x/time/rate's ReserveN takes them, and answered Delay after r (see
// Reserving). Reset is then the time until the bucket is full again.
func (tb *TokenBucket) Reserve(s *TokenBucketState, now time.Duration, cost int64, maxWait time.Duration) Decision {
	d := tb.Decide(s, now, cost)
	if d.Verdict != Refuse || d.RetryAfter == Never || d.RetryAfter > maxWait {
		return d
	}
	tb.Charge(s, now, cost)
	// Charge leaves last = max(now, last) and the deficit at last.
	reset := tb.ceilUnits(s.deficit) + (s.last - now)
	return Decision{Verdict: Delay, Delay: d.RetryAfter, Limit: tb.limit, Reset: reset, RetryAfterExact: true}
}

// FillTo makes s a bucket holding tokens (0 ≤ tokens ≤ Burst) at now.
func (tb *TokenBucket) FillTo(s *TokenBucketState, now time.Duration, tokens int64) {
	s.deficit, s.last = (tb.burst-tokens)*tb.span, now
}

// Capacity is Burst, the tokens of a full bucket.
func (tb *TokenBucket) Capacity() int64 { return tb.burst }

// Reserve is Decide, except that a request refused with RetryAfter r ≤
// maxWait (r ≠ Never) is charged at now, its TAT pushed on by cost×T, and
// answered Delay after r (see Reserving). Reset is then ⌈TAT − now⌉.
func (g *GCRA) Reserve(s *GCRAState, now time.Duration, cost int64, maxWait time.Duration) Decision {
	d := g.Decide(s, now, cost)
	if d.Verdict != Refuse || d.RetryAfter == Never || d.RetryAfter > maxWait {
		return d
	}
	g.Charge(s, now, cost)
	reset := g.sub(s.tat, at(now)).ceil() // TAT > now after the charge
	return Decision{Verdict: Delay, Delay: d.RetryAfter, Limit: g.limit, Reset: reset, RetryAfterExact: true}
}

// FillTo makes s a bucket holding tokens (0 ≤ tokens ≤ Burst) at now:
// TAT = now + (Burst − tokens)×T.
func (g *GCRA) FillTo(s *GCRAState, now time.Duration, tokens int64) {
	s.tat = g.add(at(now), g.interval(g.burst-tokens))
}

// Capacity is Burst, the tokens of a full bucket.
func (g *GCRA) Capacity() int64 { return g.burst }

func (tb *TokenBucket) unseen(s *TokenBucketState) bool { return *s == TokenBucketState{} }

func (g *GCRA) unseen(s *GCRAState) bool { return s.tat == exactDur{} }
