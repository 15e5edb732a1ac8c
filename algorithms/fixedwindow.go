package algorithms

import (
	"fmt"
	"time"
)

// FixedWindow counts admitted cost in fixed windows [k·Window, (k+1)·Window),
// aligned to t=0 of the virtual clock, and admits a request while
// count+cost ≤ Limit. Refused requests are not counted. Burst is ignored: the
// window's limit is its burst.
//
// Because the count restarts at every window boundary, a client can be admitted
// Limit just before a boundary and Limit again just after it: up to 2×Limit in
// any span of one Window. That is the boundary burst this lane exists to show.
//
// RetryAfter is exact: the time until the next window starts (Never when
// cost > Limit). Reset is the same instant; Remaining is Limit − count.
//
// Times are nanoseconds since the start, now ≥ 0. A now earlier than the window
// of the last admission counts against that window. The rule is immutable and
// safe for concurrent use; each FixedWindowState belongs to one goroutine.
type FixedWindow struct {
	limit  int64
	window time.Duration
}

// FixedWindowState is one key's count in its current window: 16 bytes.
// The zero value is a never-seen key.
type FixedWindowState struct {
	start time.Duration // start of the window count belongs to
	count int64
}

// NewFixedWindow returns a fixed-window rule for p, or every problem with p.
func NewFixedWindow(p Policy) (*FixedWindow, error) {
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("fixed window: %w", err)
	}
	return &FixedWindow{limit: p.Limit, window: p.Window}, nil
}

// current is the window now falls in, as s counts it: its start and the cost
// counted in it (0 in a window s has not reached yet). A now before s's window
// (time going backwards) is counted in s's window.
func (fw *FixedWindow) current(s *FixedWindowState, now time.Duration) (start time.Duration, count int64) {
	if start = now - now%fw.window; start > s.start {
		return start, 0
	}
	return s.start, s.count
}

// Decide admits or refuses a request of cost units (cost ≥ 1) at now.
func (fw *FixedWindow) Decide(s *FixedWindowState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("FixedWindow.Decide", cost)
	}
	start, count := fw.current(s, now)
	next := start + fw.window
	d := Decision{Limit: fw.limit, RetryAfterExact: true}
	if cost > fw.limit-count {
		d.Verdict = Refuse
		d.RetryAfter = next - now
		if cost > fw.limit {
			d.RetryAfter = Never
		}
	} else {
		count += cost
		s.start, s.count = start, count
	}
	d.Remaining = max(fw.limit-count, 0) // below 0 only after a Charge
	if count > 0 {
		d.Reset = next - now
	}
	return d
}

// Idle reports whether s decides exactly as a never-seen key from now on:
// nothing counted, or its window is over.
func (fw *FixedWindow) Idle(s *FixedWindowState, now time.Duration) bool {
	return s.count == 0 || now >= s.start+fw.window
}
