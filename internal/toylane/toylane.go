// Package toylane is a toy per-key limiter for tests that hold every lane list
// to the registry: a lane added by its algorithm and its registry row alone
// must run everywhere a built-in per-key lane runs.
package toylane

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Budget gives each key Limit cost units per window, windows aligned to t=0,
// like a fixed window with no Admitter, Answerer or Queue: it takes no fast path.
type Budget struct {
	limit  int64
	window time.Duration
}

// State is one key's budget: the window it counts in and the units spent.
// The zero value is a never-seen key.
type State struct {
	start time.Duration
	used  int64
}

// New returns a budget rule for p, or every problem with p.
func New(p algorithms.Policy) (*Budget, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return &Budget{limit: p.Limit, window: p.Window}, nil
}

func (b *Budget) roll(s *State, now time.Duration) {
	if start := now - now%b.window; start > s.start {
		s.start, s.used = start, 0
	}
}

// Decide admits a request of cost if it fits what is left of now's window.
func (b *Budget) Decide(s *State, now time.Duration, cost int64) algorithms.Decision {
	b.roll(s, now)
	d := algorithms.Decision{Limit: b.limit, Reset: s.start + b.window - now}
	if s.used+cost > b.limit {
		d.Verdict, d.RetryAfter, d.RetryAfterExact = algorithms.Refuse, d.Reset, true
		if cost > b.limit {
			d.RetryAfter = algorithms.Never
		}
		d.Remaining = max(b.limit-s.used, 0)
		return d
	}
	s.used += cost
	d.Verdict, d.Remaining = algorithms.Admit, b.limit-s.used
	return d
}

// Idle reports whether s decides at now as a never-seen key's.
func (b *Budget) Idle(s *State, now time.Duration) bool {
	return s.used == 0 || now >= s.start+b.window
}

// Charge spends cost in now's window, past the budget if need be.
func (b *Budget) Charge(s *State, now time.Duration, cost int64) {
	b.roll(s, now)
	s.used += cost
}
