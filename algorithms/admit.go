package algorithms

import "time"

// Admitter is an Algorithm that can give Decide's verdict alone, for callers
// that need no answer (no headers, no trace): Admit(s, now, cost) returns true
// exactly when Decide would admit the request at once, and then leaves s as
// Decide would. When it returns false it has changed nothing: the caller asks
// Decide for the answer (a refusal, a delay, or a case Admit leaves to Decide,
// such as time going backwards). Admit then Decide on false is Decide, verdict
// for verdict and state for state (property_test.go).
type Admitter[S any] interface {
	Admit(s *S, now time.Duration, cost int64) bool
}

var (
	_ Admitter[FixedWindowState] = (*FixedWindow)(nil)
	_ Admitter[TokenBucketState] = (*TokenBucket)(nil)
	_ Admitter[GCRAState]        = (*GCRA)(nil)

	_ Admitter[SlidingLogState]           = (*SlidingLog)(nil)
	_ Admitter[SlidingWindowCounterState] = (*SlidingWindowCounter)(nil)
)

// Admit is Decide's verdict alone (see Admitter): it spends cost tokens and
// reports true when they are there at now ≥ the last admission.
func (tb *TokenBucket) Admit(s *TokenBucketState, now time.Duration, cost int64) bool {
	if cost < 1 {
		badCost("TokenBucket.Admit", cost)
	}
	if now < s.last || cost > tb.burst {
		return false
	}
	deficit := tb.deficitAt(s, now)
	if deficit > tb.full-cost*tb.span {
		return false
	}
	s.deficit, s.last = deficit+cost*tb.span, now
	return true
}

// Admit is Decide's verdict alone (see Admitter): it moves the TAT and reports
// true when the request conforms at now.
func (g *GCRA) Admit(s *GCRAState, now time.Duration, cost int64) bool {
	if cost < 1 {
		badCost("GCRA.Admit", cost)
	}
	ahead := s.tat.ns - int64(now)
	if ahead > g.maxAhead || cost > g.burst {
		return false
	}
	var wait int64
	if ahead >= 0 {
		wait = ahead*g.units + s.tat.frac
	}
	if wait > g.full-cost*g.span {
		return false
	}
	untilTAT := g.fromUnits(wait + cost*g.span)
	s.tat = exactDur{ns: int64(now) + untilTAT.ns, frac: untilTAT.frac}
	return true
}

// Admit is Decide's verdict alone (see Admitter): it counts cost in now's
// window and reports true when the window has room for it.
func (fw *FixedWindow) Admit(s *FixedWindowState, now time.Duration, cost int64) bool {
	if cost < 1 {
		badCost("FixedWindow.Admit", cost)
	}
	start, count := fw.current(s, now)
	if cost > fw.limit-count {
		return false
	}
	s.start, s.count = start, count+cost
	return true
}
