package algorithms

import (
	"fmt"
	"time"
)

// GCRA is the generic cell rate algorithm: one request of cost units is due every
// cost×T, with emission interval T = Window/Limit, and may come up to
// Burst×T early (Burst = Policy.EffectiveBurst). Its one number of state is the
// theoretical arrival time TAT. A request at now computes
//
//	newTAT = max(TAT, now) + cost×T
//
// and is refused, storing nothing, if newTAT − now > Burst×T; otherwise TAT
// becomes newTAT.
//
// TAT is kept exactly, as whole nanoseconds plus a remainder in units of 1/L' ns
// (Limit/Window reduced to lowest terms L'/W'), so T need not divide a
// nanosecond. On any traffic with non-decreasing times GCRA returns the same
// Decisions as TokenBucket with the same Policy: TAT − now is the bucket's deficit
// measured in time.
//
// RetryAfter is exact: ⌈newTAT − now − Burst×T⌉, after which the request would
// be admitted if nothing else arrived; one nanosecond earlier it is refused.
// Never when cost > Burst. Remaining is ⌊(Burst×T − (TAT − now))/T⌋; Reset is
// ⌈TAT − now⌉, the time until the quota is fully restored.
//
// Memory is 16 bytes per key. Times are nanoseconds since the start. A now
// earlier than a previous call needs no special case: it only sees TAT further
// away, so it is never admitted more. The rule is immutable and safe for
// concurrent use; each GCRAState belongs to one goroutine.
type GCRA struct {
	pace
	limit int64
	burst int64
	full  int64 // burst×W': Burst×T in units of 1/L' ns
	// maxAhead is ⌊Burst×T⌋: beyond it TAT − now cannot be held in units of 1/L' ns.
	maxAhead int64
}

// GCRAState is one key's theoretical arrival time: 16 bytes. The zero value is a
// never-seen key.
type GCRAState struct {
	tat exactDur
}

// NewGCRA returns a GCRA rule for p, or every problem with p.
func NewGCRA(p Policy) (*GCRA, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("gcra: %w", err)
	}
	g := &GCRA{pace: newPace(p.Limit, p.Window), limit: p.Limit, burst: p.EffectiveBurst()}
	if err := g.checkScale("burst", g.burst, 1); err != nil {
		return nil, fmt.Errorf("gcra: %w", err)
	}
	g.full = g.burst * g.span
	g.maxAhead = g.full / g.units
	return g, nil
}

// Decide admits or refuses a request of cost units (cost ≥ 1) at now.
func (g *GCRA) Decide(s *GCRAState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("GCRA.Decide", cost)
	}
	d := Decision{Limit: g.limit, RetryAfterExact: true}
	ahead := s.tat.ns - int64(now)
	if ahead > g.maxAhead || cost > g.burst {
		return g.refuseFar(d, s, now, cost)
	}
	// wait = TAT − now in units of 1/L' ns, at most Burst×T here, so it fits.
	var wait int64
	if ahead >= 0 {
		wait = ahead*g.units + s.tat.frac
	}
	if allowed := g.full - cost*g.span; wait > allowed {
		d.Verdict = Refuse
		d.RetryAfter = g.ceilUnits(wait - allowed)
	} else {
		wait += cost * g.span
	}
	untilTAT := g.fromUnits(wait)
	if d.Verdict == Admit {
		s.tat = exactDur{ns: int64(now) + untilTAT.ns, frac: untilTAT.frac}
	}
	d.Remaining = g.bySpan.div(max(g.full-wait, 0)) // a state charged past its burst (Charge) can be behind by under 1ns more
	d.Reset = untilTAT.ceil()
	return d
}

// refuseFar refuses a request costing more than Burst, or arriving more than
// Burst×T before TAT (time went backwards), in exact time arithmetic.
func (g *GCRA) refuseFar(d Decision, s *GCRAState, now time.Duration, cost int64) Decision {
	d.Verdict, d.RetryAfter = Refuse, Never
	t := at(now)
	wait := g.sub(maxExact(s.tat, t), t)
	if cost <= g.burst {
		d.RetryAfter = g.sub(wait, g.fromUnits(g.full-cost*g.span)).ceil()
	}
	d.Remaining = g.remaining(wait)
	d.Reset = wait.ceil()
	return d
}

// Idle reports whether TAT ≤ now: a new key would decide the same from now on.
func (g *GCRA) Idle(s *GCRAState, now time.Duration) bool {
	return !at(now).less(s.tat)
}

// remaining is ⌊(Burst×T − wait)/T⌋, 0 if wait exceeds Burst×T.
func (g *GCRA) remaining(wait exactDur) int64 {
	if g.fromUnits(g.full).less(wait) {
		return 0
	}
	return g.bySpan.div(g.full - g.toUnits(wait))
}

func maxExact(a, b exactDur) exactDur {
	if a.less(b) {
		return b
	}
	return a
}
