package algorithms

import "time"

// Answerer is a Refuser that gives Admit's verdict and, for a request it does
// not admit, Refusal's, in one computation: admitted when Decide would admit
// the request at once (s then left as Decide leaves it); refused when Decide
// would refuse it, with Decide's RetryAfter, s then left as Decide leaves it
// too (unchanged but where the product counts a refusal, as
// envoyproxy/ratelimit's INCRBY, Kong rate-limiting-advanced's penalty and
// Cloudflare's counting do); neither when Decide must answer (a delay, or
// time going backwards), s unchanged. Admit and Refusal are Answer's verdicts
// where a refusal changes nothing (answer_test.go and products_fast_test.go
// check Answer against Decide).
type Answerer[S any] interface {
	Answer(s *S, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool)
}

var (
	_ Answerer[FixedWindowState] = (*FixedWindow)(nil)
	_ Answerer[TokenBucketState] = (*TokenBucket)(nil)
	_ Answerer[GCRAState]        = (*GCRA)(nil)
)

// Answer is Admit, or Refusal for what it does not admit (see Answerer).
func (tb *TokenBucket) Answer(s *TokenBucketState, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool) {
	if cost < 1 {
		badCost("TokenBucket.Answer", cost)
	}
	if now < s.last {
		return 0, false, false
	}
	if cost > tb.burst {
		return Never, false, true
	}
	deficit := tb.deficitAt(s, now)
	if excess := deficit - (tb.full - cost*tb.span); excess > 0 {
		return tb.ceilUnits(excess), false, true
	}
	s.deficit, s.last = deficit+cost*tb.span, now
	return 0, true, false
}

// Answer is Admit, or Refusal for what it does not admit (see Answerer).
func (g *GCRA) Answer(s *GCRAState, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool) {
	if cost < 1 {
		badCost("GCRA.Answer", cost)
	}
	if cost > g.burst {
		return Never, false, true
	}
	ahead := s.tat.ns - int64(now)
	if ahead > g.maxAhead {
		return 0, false, false // time went backwards: Decide's refuseFar
	}
	var wait int64
	if ahead >= 0 {
		wait = ahead*g.units + s.tat.frac
	}
	if excess := wait - (g.full - cost*g.span); excess > 0 {
		return g.ceilUnits(excess), false, true
	}
	untilTAT := g.fromUnits(wait + cost*g.span)
	s.tat = exactDur{ns: int64(now) + untilTAT.ns, frac: untilTAT.frac}
	return 0, true, false
}

// Answer is Admit, or Refusal for what it does not admit (see Answerer).
func (fw *FixedWindow) Answer(s *FixedWindowState, now time.Duration, cost int64) (retryAfter time.Duration, admitted, refused bool) {
	if cost < 1 {
		badCost("FixedWindow.Answer", cost)
	}
	start, count := fw.current(s, now)
	if cost <= fw.limit-count {
		s.start, s.count = start, count+cost
		return 0, true, false
	}
	if cost > fw.limit {
		return Never, false, true
	}
	return start + fw.window - now, false, true
}
