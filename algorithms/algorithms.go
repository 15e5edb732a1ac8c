// Package algorithms holds the rate-limiting strategies that rlsim compares, as a
// library with no I/O and no wall clock: every method takes the virtual time `now`,
// an integer number of nanoseconds since the start of the simulation.
//
// The six per-key limiters (FixedWindow, SlidingLog, SlidingWindowCounter,
// TokenBucket, LeakyBucket, GCRA) share one shape. Each is a rule built from a
// Policy ("Limit requests per Window, bursts of Burst") and a per-key state type
// whose zero value means "never seen":
//
//	rule.Decide(&state, now, cost) Decision
//	rule.Idle(&state, now) bool // state now decides exactly as a never-seen key
//	Peek(rule, &state, now, cost) Decision // Decide's answer, changing nothing
//
// Costs are whole units, at least 1; Decide panics on a smaller cost, which is the
// caller's bug. Time and rates are exact integers (no float drift at boundaries):
// a rate Limit/Window is kept as a reduced fraction, and instants that fall
// between nanoseconds are kept as whole ns plus a fraction.
//
// Keyed wraps any of them with a map from key to state and eviction of idle keys.
// The rules are immutable after construction and safe for concurrent use; a state
// belongs to one goroutine at a time.
//
// AIMD, Vegas and Gradient2 (server-side adaptive concurrency limits: Acquire at now,
// Release with the latency) and Throttle (client-side adaptive throttling)
// complete the set.
package algorithms

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// Verdict is what a limiter decided for one request.
type Verdict uint8

const (
	// Admit lets the request through now.
	Admit Verdict = iota
	// Refuse turns the request away (HTTP 429); a refusal changes no state.
	Refuse
	// Delay admits the request late, after Decision.Delay (the leaky queue's release slot).
	Delay
)

func (v Verdict) String() string {
	switch v {
	case Admit:
		return "admit"
	case Refuse:
		return "refuse"
	case Delay:
		return "delay"
	}
	return fmt.Sprintf("Verdict(%d)", uint8(v))
}

// Never is the RetryAfter of a request that no wait can admit (its cost exceeds the burst).
const Never time.Duration = math.MaxInt64

// Decision is a limiter's answer to one request, with what a real server would tell
// the client in its RateLimit and Retry-After headers.
type Decision struct {
	Verdict Verdict
	// Delay is how long an admitted request waits before it is released (Delay verdict only).
	Delay time.Duration
	// Limit is the policy's limit, in cost units per window.
	Limit int64
	// Remaining is how many cost units could still be admitted right after this decision.
	Remaining int64
	// Reset is the time from now until the quota is fully restored (RateLimit reset=).
	Reset time.Duration
	// RetryAfter, on a refusal, is the wait after which the same request would be
	// admitted if nothing else arrived; Never if no wait would do. Zero otherwise.
	RetryAfter time.Duration
	// RetryAfterExact is false when RetryAfter is an estimate (sliding window counter).
	RetryAfterExact bool
}

// Admitted reports whether the request goes through, now or after a delay.
func (d Decision) Admitted() bool { return d.Verdict != Refuse }

// Policy states a limit as Limit cost units per Window, with bursts of up to Burst.
// The zero Burst means Burst = Limit.
type Policy struct {
	Limit  int64
	Window time.Duration
	Burst  int64
}

// Validate reports what is wrong with p, or nil.
func (p Policy) Validate() error {
	var errs []error
	if p.Limit <= 0 {
		errs = append(errs, fmt.Errorf("limit must be positive, got %d", p.Limit))
	}
	if p.Window <= 0 {
		errs = append(errs, fmt.Errorf("window must be positive, got %v", p.Window))
	}
	if p.Burst < 0 {
		errs = append(errs, fmt.Errorf("burst must not be negative, got %d", p.Burst))
	}
	return errors.Join(errs...)
}

// EffectiveBurst is Burst, or Limit when Burst is zero.
func (p Policy) EffectiveBurst() int64 {
	if p.Burst == 0 {
		return p.Limit
	}
	return p.Burst
}

// Algorithm is the shape shared by the six per-key limiters: a rule deciding on
// one key's state S, whose zero value is a never-seen key.
type Algorithm[S any] interface {
	Decide(s *S, now time.Duration, cost int64) Decision
	Idle(s *S, now time.Duration) bool
}

// The six per-key limiters implement Algorithm.
var (
	_ Algorithm[FixedWindowState]          = (*FixedWindow)(nil)
	_ Algorithm[SlidingLogState]           = (*SlidingLog)(nil)
	_ Algorithm[SlidingWindowCounterState] = (*SlidingWindowCounter)(nil)
	_ Algorithm[TokenBucketState]          = (*TokenBucket)(nil)
	_ Algorithm[GCRAState]                 = (*GCRA)(nil)
	_ Algorithm[LeakyBucketState]          = (*LeakyBucket)(nil)
)

// Peek is the Decision alg.Decide would return for a request of cost at now, with
// s left exactly as it is. A limit chain that charges nothing when any of its
// limits refuses (as nginx does with several limit_req zones) peeks at every limit
// before it decides any. SlidingLog peeks with its own method; the other five
// states are plain values, so Peek decides on a copy.
func Peek[S any](alg Algorithm[S], s *S, now time.Duration, cost int64) Decision {
	if p, ok := alg.(interface {
		Peek(*S, time.Duration, int64) Decision
	}); ok {
		return p.Peek(s, now, cost)
	}
	c := *s
	return alg.Decide(&c, now, cost)
}
