package algorithms

import (
	"fmt"
	"time"
)

// maxLogLimit bounds SlidingLog's Limit: a key may come to hold Limit entries.
const maxLogLimit = 1 << 30

// SlidingLog keeps the time and cost of every admitted request in the last Window
// and admits a request if their sum plus its cost is at most Limit. An entry
// admitted at t counts during (t−Window, t] as seen from now, and expires at
// exactly t+Window. So it is exact: no half-open window [t, t+Window) ever holds
// more than Limit admitted cost. Burst is ignored. Refused requests are not logged.
//
// RetryAfter is exact: the time until enough of the oldest entries have expired
// for the cost to fit (Never when cost > Limit). Reset is the time until the
// newest entry expires; Remaining is Limit minus the logged cost.
//
// Memory is O(Limit) per key at worst: a ring buffer of 16-byte entries, one per
// admission still in the window, allocated at the key's first admission and
// doubled when full, up to Limit entries (a never-admitted key holds 48 bytes and
// no buffer). Once a key's ring has grown to its busiest window, Decide allocates
// nothing. NewSlidingLog rejects Limit above 2^30.
// Decide costs O(1) when few entries expire between calls, O(log Limit) at worst.
//
// Times are nanoseconds since the start. A now earlier than the newest entry is
// treated as that entry's time: the request is decided, and logged, as if it came
// then. The rule is immutable and safe for concurrent use; each SlidingLogState
// belongs to one goroutine.
type SlidingLog struct {
	limit  int64
	window time.Duration
}

// SlidingLogState is one key's log of admitted requests. The zero value is a
// never-seen key.
type SlidingLogState struct {
	ring []logEntry // len Limit once allocated; entries oldest first from head
	head int
	n    int
	base uint64 // running admitted cost before ring[head]
}

// CopyFrom makes s an independent copy of src (a replica's copy of a state
// read from a store): later decisions on either leave the other as it is. It
// reuses s's log when it is big enough.
func (s *SlidingLogState) CopyFrom(src *SlidingLogState) {
	ring := append(s.ring[:0], src.ring...)
	if src.ring == nil {
		ring = nil
	}
	*s = *src
	s.ring = ring
}

// logEntry is one admitted request. Its cost is upto minus the previous entry's
// upto: a running sum (wrapping harmlessly) lets Decide find both the logged cost
// and Retry-After by binary search.
type logEntry struct {
	at   time.Duration
	upto uint64
}

// NewSlidingLog returns a sliding-log rule for p, or every problem with p.
func NewSlidingLog(p Policy) (*SlidingLog, error) {
	err := p.Validate()
	if err == nil && p.Limit > maxLogLimit {
		err = fmt.Errorf("limit %d is above %d, the most it can log (16 bytes per admitted unit and key)", p.Limit, maxLogLimit)
	}
	if err != nil {
		return nil, fmt.Errorf("sliding log: %w", err)
	}
	return &SlidingLog{limit: p.Limit, window: p.Window}, nil
}

// Decide admits or refuses a request of cost units (cost ≥ 1) at now.
func (sl *SlidingLog) Decide(s *SlidingLogState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("SlidingLog.Decide", cost)
	}
	eff, gone, used := sl.view(s, now)
	d := sl.decision(s, now, cost, eff, gone, used)
	if d.Verdict == Admit {
		s.drop(gone)
		s.push(sl.limit, eff, cost)
	}
	return d
}

// Peek is the Decision Decide would return for the same request, with s left as
// it is (see the package's Peek).
func (sl *SlidingLog) Peek(s *SlidingLogState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("SlidingLog.Peek", cost)
	}
	eff, gone, used := sl.view(s, now)
	return sl.decision(s, now, cost, eff, gone, used)
}

// decision is the answer to a request of cost at now, given the log's view at now.
func (sl *SlidingLog) decision(s *SlidingLogState, now time.Duration, cost int64, eff time.Duration, gone int, used int64) Decision {
	d := Decision{Limit: sl.limit, RetryAfterExact: true}
	if cost > sl.limit-used {
		d.Verdict = Refuse
		d.Remaining = max(sl.limit-used, 0) // below 0 only after a Charge
		if used > 0 {
			d.Reset = s.entry(s.n-1).at + sl.window - now
		}
		d.RetryAfter = Never
		if cost <= sl.limit {
			last := s.firstReaching(gone, used+cost-sl.limit)
			d.RetryAfter = s.entry(last).at + sl.window - now
		}
		return d
	}
	d.Remaining = sl.limit - used - cost
	d.Reset = eff + sl.window - now
	return d
}

// Allow is Decide's verdict alone, with the same effect on s, for callers that
// need no headers: it skips building the Decision, which costs as much as the
// decision itself. It is Admit (see Admitter) under its first name.
func (sl *SlidingLog) Allow(s *SlidingLogState, now time.Duration, cost int64) bool {
	return sl.Admit(s, now, cost)
}

// Admit is Decide's verdict alone (see Admitter): it logs the request and reports
// true when it fits in the window. A sliding log never delays, so Admit and
// Decide agree on every request; Admit only skips building the answer.
func (sl *SlidingLog) Admit(s *SlidingLogState, now time.Duration, cost int64) bool {
	if cost < 1 {
		badCost("SlidingLog.Admit", cost)
	}
	eff, gone, used := sl.view(s, now)
	if cost > sl.limit-used {
		return false
	}
	s.drop(gone)
	s.push(sl.limit, eff, cost)
	return true
}

// view is the log as seen at now: the effective time (now, or the newest entry's
// if time went backwards), how many of the oldest entries have expired, and the
// cost the rest hold.
func (sl *SlidingLog) view(s *SlidingLogState, now time.Duration) (eff time.Duration, gone int, used int64) {
	eff = now
	if s.n > 0 && s.entry(s.n-1).at > now {
		eff = s.entry(s.n - 1).at
	}
	gone = s.firstAfter(eff - sl.window)
	return eff, gone, int64(s.total() - s.uptoBefore(gone))
}

// Idle reports whether every logged entry has expired by now.
func (sl *SlidingLog) Idle(s *SlidingLogState, now time.Duration) bool {
	return s.n == 0 || s.entry(s.n-1).at+sl.window <= now
}

// entry is the i-th oldest entry.
func (s *SlidingLogState) entry(i int) *logEntry {
	i += s.head
	if i >= len(s.ring) {
		i -= len(s.ring)
	}
	return &s.ring[i]
}

func (s *SlidingLogState) uptoBefore(i int) uint64 {
	if i == 0 {
		return s.base
	}
	return s.entry(i - 1).upto
}

func (s *SlidingLogState) total() uint64 { return s.uptoBefore(s.n) }

// firstAfter is the number of entries at or before cut: those that have expired.
// It gallops from the oldest entry, so the usual case, when at most a few have
// expired since the last call, costs O(1) and the worst O(log Limit).
func (s *SlidingLogState) firstAfter(cut time.Duration) int {
	lo, hi := 0, s.n // entries before lo have expired; entry hi−1 and on may not have
	for step := 1; lo < hi; step *= 2 {
		probe := min(lo+step, hi) - 1
		if s.entry(probe).at > cut {
			hi = probe
			break
		}
		lo = probe + 1
	}
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if s.entry(mid).at <= cut {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// firstReaching is the first entry from `from` on whose expiry frees at least need.
func (s *SlidingLogState) firstReaching(from int, need int64) int {
	base := s.uptoBefore(from)
	lo, hi := from, s.n-1
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if int64(s.entry(mid).upto-base) < need {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

func (s *SlidingLogState) drop(k int) {
	if k == 0 {
		return
	}
	s.base = s.uptoBefore(k)
	s.head += k
	if s.head >= len(s.ring) {
		s.head -= len(s.ring)
	}
	s.n -= k
}

// push logs an admission. The ring never needs more than Limit entries: each
// entry costs at least 1, so Limit entries already fill the window.
func (s *SlidingLogState) push(limit int64, at time.Duration, cost int64) {
	if s.n == len(s.ring) {
		s.grow(limit)
	}
	upto := s.total() + uint64(cost)
	s.n++
	*s.entry(s.n - 1) = logEntry{at: at, upto: upto}
}

// grow doubles the ring, up to limit entries, keeping the entries in order.
func (s *SlidingLogState) grow(limit int64) {
	size := min(max(2*len(s.ring), 8), int(limit))
	ring := make([]logEntry, size)
	for i := range s.n {
		ring[i] = *s.entry(i)
	}
	s.ring, s.head = ring, 0
}
