package algorithms

import (
	"math"
	"math/bits"
	"time"
)

// Charging counts a request of cost units at now whether it fits or not, as a
// store counting every replica's admissions does (INCRBY): a state charged past
// its limit is in debt and refuses until the debt is paid, exactly as long as
// the limit's rate takes to pay it. Charging what Decide would admit leaves the
// same state Decide leaves. All six per-key limiters implement it; debts
// saturate far beyond any run's reach instead of overflowing.
type Charging[S any] interface {
	Charge(s *S, now time.Duration, cost int64)
}

var (
	_ Charging[FixedWindowState]          = (*FixedWindow)(nil)
	_ Charging[SlidingLogState]           = (*SlidingLog)(nil)
	_ Charging[SlidingWindowCounterState] = (*SlidingWindowCounter)(nil)
	_ Charging[TokenBucketState]          = (*TokenBucket)(nil)
	_ Charging[GCRAState]                 = (*GCRA)(nil)
	_ Charging[LeakyBucketState]          = (*LeakyBucket)(nil)
)

// Charge counts cost in now's window, over the limit if need be.
func (fw *FixedWindow) Charge(s *FixedWindowState, now time.Duration, cost int64) {
	start := now - now%fw.window
	if start > s.start {
		s.start, s.count = start, 0
	}
	s.count = satAdd(s.count, cost)
}

// Charge counts cost in now's window, over the limit if need be.
func (sw *SlidingWindowCounter) Charge(s *SlidingWindowCounterState, now time.Duration, cost int64) {
	c := sw.at(s, now)
	s.start, s.prev, s.cur = c.start, c.prev, satAdd(c.cur, cost)
}

// Charge takes cost tokens, below an empty bucket if need be.
func (tb *TokenBucket) Charge(s *TokenBucketState, now time.Duration, cost int64) {
	if now < s.last {
		now = s.last
	}
	deficit := tb.deficitAt(s, now)
	if exceeds(cost, tb.span, math.MaxInt64/2-deficit) {
		s.deficit, s.last = math.MaxInt64/2, now
		return
	}
	s.deficit, s.last = deficit+cost*tb.span, now
}

// Charge moves the theoretical arrival time on by cost×T, beyond Burst×T ahead if need be.
func (g *GCRA) Charge(s *GCRAState, now time.Duration, cost int64) {
	s.tat = g.add(maxExact(s.tat, at(now)), g.interval(min(cost, g.burst)))
	for cost -= min(cost, g.burst); cost > 0; cost -= min(cost, g.burst) {
		s.tat = g.add(s.tat, g.interval(min(cost, g.burst)))
	}
}

// Charge queues cost units behind the queue, beyond its depth if need be.
func (lb *LeakyBucket) Charge(s *LeakyBucketState, now time.Duration, cost int64) {
	s.nextFree = lb.add(maxExact(s.nextFree, at(now)), lb.interval(min(cost, lb.burst+1)))
	for cost -= min(cost, lb.burst+1); cost > 0; cost -= min(cost, lb.burst+1) {
		s.nextFree = lb.add(s.nextFree, lb.interval(min(cost, lb.burst+1)))
	}
}

// Charge logs cost at now. A log already holding Limit entries merges its two
// oldest into one at the later's time (or, holding one, moves it to now), so
// the debt is held at least as long as the requests charged.
func (sl *SlidingLog) Charge(s *SlidingLogState, now time.Duration, cost int64) {
	eff, gone, _ := sl.view(s, now)
	s.drop(gone)
	if s.n == len(s.ring) && int64(s.n) == sl.limit {
		if s.n == 1 {
			e := s.entry(0)
			e.at, e.upto = eff, e.upto+uint64(cost)
			return
		}
		s.head++ // ring[head]'s cost now counts with the next entry's (base is kept)
		if s.head == len(s.ring) {
			s.head = 0
		}
		s.n--
	}
	s.push(sl.limit, eff, cost)
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// exceeds reports whether cost×span > room (span > 0, room ≥ 0), exactly, in
// 128 bits: cost > room/span with no division, which a store's every
// charge would pay for.
func exceeds(cost, span, room int64) bool {
	if cost <= 0 {
		return false
	}
	hi, lo := bits.Mul64(uint64(cost), uint64(span))
	return hi != 0 || lo > uint64(room)
}
