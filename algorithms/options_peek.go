package algorithms

import "time"

// The options ask their inner rule what it would answer (Peek) on their
// decision path: a Penalty after its charge, a Ban during the ban. The package's
// Peek decides on a copy of the state through the Algorithm interface, which
// moves the copy to the heap; these methods copy inside the concrete rule, so
// the copy stays on the stack and a decision allocates nothing.

// valuePeeker is a rule with a Peek that does not allocate.
type valuePeeker[S any] interface {
	peek(s *S, now time.Duration, cost int64) Decision
}

// peekOf is alg's answer with s unchanged (see Peek), without allocating where alg can.
func peekOf[S any](alg Algorithm[S], s *S, now time.Duration, cost int64) Decision {
	if p, ok := alg.(valuePeeker[S]); ok {
		return p.peek(s, now, cost)
	}
	return Peek(alg, s, now, cost)
}

// chargedPeeker is a rule that can answer for a request after charging it,
// s unchanged, without allocating.
type chargedPeeker[S any] interface {
	peekCharged(s *S, now time.Duration, cost int64) Decision
}

// reservePeeker is a Reserving rule that can answer Reserve with s unchanged,
// without allocating.
type reservePeeker[S any] interface {
	peekReserve(s *S, now time.Duration, cost int64, maxWait time.Duration) Decision
}

func (fw *FixedWindow) peek(s *FixedWindowState, now time.Duration, cost int64) Decision {
	c := *s
	return fw.Decide(&c, now, cost)
}

func (fw *FixedWindow) peekCharged(s *FixedWindowState, now time.Duration, cost int64) Decision {
	c := *s
	fw.Charge(&c, now, cost)
	return fw.Decide(&c, now, cost)
}

func (fw *AlignedFixedWindow) peek(s *AlignedFixedWindowState, now time.Duration, cost int64) Decision {
	c := *s
	return fw.Decide(&c, now, cost)
}

func (fw *AlignedFixedWindow) peekCharged(s *AlignedFixedWindowState, now time.Duration, cost int64) Decision {
	c := *s
	fw.Charge(&c, now, cost)
	return fw.Decide(&c, now, cost)
}

func (sw *SlidingWindowCounter) peek(s *SlidingWindowCounterState, now time.Duration, cost int64) Decision {
	c := *s
	return sw.Decide(&c, now, cost)
}

func (sw *SlidingWindowCounter) peekCharged(s *SlidingWindowCounterState, now time.Duration, cost int64) Decision {
	c := *s
	sw.Charge(&c, now, cost)
	return sw.Decide(&c, now, cost)
}

func (lb *LeakyBucket) peek(s *LeakyBucketState, now time.Duration, cost int64) Decision {
	c := *s
	return lb.Decide(&c, now, cost)
}

func (lb *LeakyBucket) peekCharged(s *LeakyBucketState, now time.Duration, cost int64) Decision {
	c := *s
	lb.Charge(&c, now, cost)
	return lb.Decide(&c, now, cost)
}

func (sl *SlidingLog) peek(s *SlidingLogState, now time.Duration, cost int64) Decision {
	return sl.Peek(s, now, cost)
}

func (tb *TokenBucket) peek(s *TokenBucketState, now time.Duration, cost int64) Decision {
	return tb.peekFrom(s, false, 0, now, cost, 0)
}

func (tb *TokenBucket) peekCharged(s *TokenBucketState, now time.Duration, cost int64) Decision {
	c := *s
	tb.Charge(&c, now, cost)
	return tb.Decide(&c, now, cost)
}

func (tb *TokenBucket) peekReserve(s *TokenBucketState, now time.Duration, cost int64, maxWait time.Duration) Decision {
	return tb.peekFrom(s, false, 0, now, cost, maxWait)
}

// peekFrom is Decide (maxWait 0) or Reserve on a copy of s, first filled to
// tokens at now if fill.
func (tb *TokenBucket) peekFrom(s *TokenBucketState, fill bool, tokens int64, now time.Duration, cost int64, maxWait time.Duration) Decision {
	c := *s
	if fill {
		tb.FillTo(&c, now, tokens)
	}
	if maxWait > 0 {
		return tb.Reserve(&c, now, cost, maxWait)
	}
	return tb.Decide(&c, now, cost)
}

func (g *GCRA) peek(s *GCRAState, now time.Duration, cost int64) Decision {
	return g.peekFrom(s, false, 0, now, cost, 0)
}

func (g *GCRA) peekCharged(s *GCRAState, now time.Duration, cost int64) Decision {
	c := *s
	g.Charge(&c, now, cost)
	return g.Decide(&c, now, cost)
}

func (g *GCRA) peekReserve(s *GCRAState, now time.Duration, cost int64, maxWait time.Duration) Decision {
	return g.peekFrom(s, false, 0, now, cost, maxWait)
}

// peekFrom is Decide (maxWait 0) or Reserve on a copy of s, first filled to
// tokens at now if fill.
func (g *GCRA) peekFrom(s *GCRAState, fill bool, tokens int64, now time.Duration, cost int64, maxWait time.Duration) Decision {
	c := *s
	if fill {
		g.FillTo(&c, now, tokens)
	}
	if maxWait > 0 {
		return g.Reserve(&c, now, cost, maxWait)
	}
	return g.Decide(&c, now, cost)
}

// The options peek through to their inner rule.

func (p *Penalty[S]) peek(s *S, now time.Duration, cost int64) Decision { return p.Peek(s, now, cost) }

func (b *Ban[S]) peek(s *BanState[S], now time.Duration, cost int64) Decision {
	return b.Peek(s, now, cost)
}

func (c *Clock[S]) peek(s *S, now time.Duration, cost int64) Decision { return c.Peek(s, now, cost) }

func (w *Wait[S]) peek(s *S, now time.Duration, cost int64) Decision { return w.Peek(s, now, cost) }

func (w *Wait[S]) peekReserve(s *S, now time.Duration, cost int64, maxWait time.Duration) Decision {
	if r, ok := w.inner.(reservePeeker[S]); ok {
		return r.peekReserve(s, now, cost, min(maxWait, w.max))
	}
	c := *s
	return w.inner.Reserve(&c, now, cost, min(maxWait, w.max))
}

func (st *Start[S]) peek(s *S, now time.Duration, cost int64) Decision {
	return st.inner.peekFrom(s, !st.full && st.forgotten(s, now), st.tokens, now, cost, 0)
}

func (st *Start[S]) peekReserve(s *S, now time.Duration, cost int64, maxWait time.Duration) Decision {
	return st.inner.peekFrom(s, !st.full && st.forgotten(s, now), st.tokens, now, cost, maxWait)
}

func (st *Start[S]) peekFrom(s *S, fill bool, tokens int64, now time.Duration, cost int64, maxWait time.Duration) Decision {
	return st.inner.peekFrom(s, fill, tokens, now, cost, maxWait)
}
