package algorithms

import (
	"fmt"
	"math/bits"
	"time"
)

// SlidingWindowCounter approximates a sliding log with two counters: the admitted
// cost in the current fixed window (aligned to t=0, as FixedWindow) and in the
// previous one. It assumes the previous window's requests were spread evenly, so
// at elapsed = now − (start of the current window) it estimates
//
//	estimate = previous × (Window − elapsed)/Window + current
//
// and admits iff estimate + cost ≤ Limit. The comparison is exact, in 128-bit
// integers: previous×(Window−elapsed) + (current+cost)×Window ≤ Limit×Window.
// A whole idle window zeroes previous. Refused requests are not counted. Burst is
// ignored.
//
// Because the estimate is only an estimate, bursty traffic can get more than
// Limit into some window [t, t+Window), or be refused while the true count in
// the last Window is below Limit.
//
// RetryAfter is an estimate, and marked so (RetryAfterExact is false): it is the
// earliest instant, rounded up to the ns, at which this counter's estimate would
// admit the request if nothing else arrived, possibly in the next window. It is
// honoured by this counter exactly, but says nothing exact about the true sliding
// count a client would see. Never when cost > Limit. Remaining is
// ⌊Limit − estimate⌋; Reset is the time until both counters would be zero.
//
// Memory is 24 bytes per key. Times are nanoseconds since the start, now ≥ 0; a
// now before the current window's start is treated as that start, which weighs
// previous fully and so never admits more. The rule is immutable and safe for
// concurrent use; each SlidingWindowCounterState belongs to one goroutine.
type SlidingWindowCounter struct {
	limit  int64
	window time.Duration
}

// SlidingWindowCounterState is one key's two counters: 24 bytes.
// The zero value is a never-seen key.
type SlidingWindowCounterState struct {
	start time.Duration // start of the window cur belongs to
	prev  int64
	cur   int64
}

// NewSlidingWindowCounter returns a sliding-window-counter rule for p, or every
// problem with p.
func NewSlidingWindowCounter(p Policy) (*SlidingWindowCounter, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("sliding window counter: %w", err)
	}
	return &SlidingWindowCounter{limit: p.Limit, window: p.Window}, nil
}

// Decide admits or refuses a request of cost units (cost ≥ 1) at now.
func (sw *SlidingWindowCounter) Decide(s *SlidingWindowCounterState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("SlidingWindowCounter.Decide", cost)
	}
	c := sw.at(s, now)
	d := Decision{Limit: sw.limit}
	if !sw.fits(c, cost) {
		d.Verdict = Refuse
		d.RetryAfter = Never
		if cost <= sw.limit {
			d.RetryAfter = sw.retryAt(c, cost) - now
		}
	} else {
		c.cur += cost
		s.start, s.prev, s.cur = c.start, c.prev, c.cur
	}
	d.Remaining = max(sw.limit-c.cur-c.weighted(), 0)
	d.Reset = sw.resetAt(c, now) - now
	return d
}

// Admit is Decide's verdict alone (see Admitter): it counts cost in now's window
// and reports true when the estimate has room for it.
func (sw *SlidingWindowCounter) Admit(s *SlidingWindowCounterState, now time.Duration, cost int64) bool {
	if cost < 1 {
		badCost("SlidingWindowCounter.Admit", cost)
	}
	c := sw.at(s, now)
	if !sw.fits(c, cost) {
		return false
	}
	s.start, s.prev, s.cur = c.start, c.prev, c.cur+cost
	return true
}

// Idle reports whether both counters are zero from now on.
func (sw *SlidingWindowCounter) Idle(s *SlidingWindowCounterState, now time.Duration) bool {
	switch {
	case now >= s.start+2*sw.window:
		return true
	case now >= s.start+sw.window:
		return s.cur == 0
	}
	return s.cur == 0 && s.prev == 0
}

// counters are the two counts as seen at an instant.
type counters struct {
	start, elapsed, window time.Duration
	prev, cur              int64
}

// at rolls s forward to now without storing it.
func (sw *SlidingWindowCounter) at(s *SlidingWindowCounterState, now time.Duration) counters {
	if now >= s.start && now-s.start < sw.window { // still s's window: no division
		return counters{start: s.start, elapsed: now - s.start, window: sw.window, prev: s.prev, cur: s.cur}
	}
	c := counters{start: now - now%sw.window, window: sw.window, prev: s.prev, cur: s.cur}
	switch {
	case c.start <= s.start: // same window, or time went backwards
		c.start = s.start
		c.elapsed = max(now-c.start, 0)
		return c
	case c.start == s.start+sw.window:
		c.prev, c.cur = s.cur, 0
	default:
		c.prev, c.cur = 0, 0
	}
	c.elapsed = now - c.start
	return c
}

// weighted is ⌈previous × (Window − elapsed)/Window⌉.
func (c counters) weighted() int64 {
	hi, lo := bits.Mul64(uint64(c.prev), uint64(c.window-c.elapsed))
	q, r := bits.Div64(hi, lo, uint64(c.window))
	if r != 0 {
		q++
	}
	return int64(q)
}

// fits reports previous×(W−elapsed) ≤ (Limit−current−cost)×W.
func (sw *SlidingWindowCounter) fits(c counters, cost int64) bool {
	room := sw.limit - c.cur - cost
	if room < 0 {
		return false
	}
	return !mulLess(room, int64(sw.window), c.prev, int64(sw.window-c.elapsed))
}

// mulLess reports a×b < x×y for non-negative operands, exactly.
func mulLess(a, b, x, y int64) bool {
	h1, l1 := bits.Mul64(uint64(a), uint64(b))
	h2, l2 := bits.Mul64(uint64(x), uint64(y))
	return h1 < h2 || (h1 == h2 && l1 < l2)
}

// retryAt is the earliest instant at which the estimate admits cost, if nothing
// else arrives. The estimate falls within a window and is continuous across the
// boundary, so it is the first instant where fits holds.
func (sw *SlidingWindowCounter) retryAt(c counters, cost int64) time.Duration {
	if room := sw.limit - c.cur - cost; room >= 0 {
		// Later in this window: previous×(W−e) ≤ room×W  ⇔  e ≥ W − ⌊room×W/previous⌋.
		if e := sw.window - floorMulDiv(room, sw.window, c.prev); e < sw.window {
			return c.start + e
		}
	}
	// In the next window current becomes previous and the new current is zero.
	return c.start + sw.window + sw.window - floorMulDiv(sw.limit-cost, sw.window, c.cur)
}

// floorMulDiv is min(⌊a×w/b⌋, w), for a, b ≥ 0: how much of a window the weight can spare.
func floorMulDiv(a int64, w time.Duration, b int64) time.Duration {
	if a >= b {
		return w
	}
	hi, lo := bits.Mul64(uint64(a), uint64(w))
	q, _ := bits.Div64(hi, lo, uint64(b)) // a < b, so the quotient is below w
	return time.Duration(q)
}

// resetAt is when both counters will have rolled out: now if they already have.
func (sw *SlidingWindowCounter) resetAt(c counters, now time.Duration) time.Duration {
	switch {
	case c.cur > 0:
		return c.start + 2*sw.window
	case c.prev > 0:
		return c.start + sw.window
	}
	return now
}
