package algorithms

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// AIMDConfig configures an AIMD concurrency limit.
type AIMDConfig struct {
	Initial, Min, Max float64       // starting limit and its bounds; 1 ≤ Min ≤ Initial ≤ Max < 2^31
	Target            time.Duration // a completion slower than this signals overload
	Backoff           float64       // multiplicative cut, in (0, 1); 0 means 0.9
}

// AIMD is a server-side adaptive concurrency limit (additive increase,
// multiplicative decrease). It admits a request while fewer than ⌊limit⌋ are in
// flight, and refuses it (HTTP 503) otherwise. On each completion the latency is
// compared with Target: a slower one multiplies the limit by Backoff, at most
// once per ⌊limit⌋ completions since the last cut (one cut per "round trip" of
// the window, so a single overload episode is not punished many times); a faster
// one adds 1/limit, so the limit grows by about one per ⌊limit⌋ fast completions.
// The limit always stays within [Min, Max].
//
// The limit is a float64 because additive increase moves it by fractions; it is
// the only float in the package and never feeds back into virtual time. An AIMD
// is one server's state; it is not safe for concurrent use. The now arguments
// are not used by the rule today; they keep the shape of every algorithm method.
type AIMD struct {
	cfg      AIMDConfig
	limit    float64
	inFlight int
	sinceCut int // completions since the last cut
}

// NewAIMD returns an AIMD limit for cfg, or every problem with cfg.
func NewAIMD(cfg AIMDConfig) (*AIMD, error) {
	if cfg.Backoff == 0 {
		cfg.Backoff = 0.9
	}
	var errs []error
	if !(cfg.Min >= 1) {
		errs = append(errs, fmt.Errorf("min must be at least 1, got %v", cfg.Min))
	}
	if !(cfg.Max >= cfg.Min && cfg.Max <= math.MaxInt32) {
		errs = append(errs, fmt.Errorf("max must be within [min, 2^31-1] = [%v, %d], got %v", cfg.Min, math.MaxInt32, cfg.Max))
	}
	if !(cfg.Initial >= cfg.Min && cfg.Initial <= cfg.Max) {
		errs = append(errs, fmt.Errorf("initial must be within [min, max] = [%v, %v], got %v", cfg.Min, cfg.Max, cfg.Initial))
	}
	if cfg.Target <= 0 {
		errs = append(errs, fmt.Errorf("target must be positive, got %v", cfg.Target))
	}
	if !(cfg.Backoff > 0 && cfg.Backoff < 1) {
		errs = append(errs, fmt.Errorf("backoff must be within (0, 1), got %v", cfg.Backoff))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("aimd: %w", err)
	}
	// The first slow completion may cut at once.
	return &AIMD{cfg: cfg, limit: cfg.Initial, sinceCut: math.MaxInt32}, nil
}

// Acquire admits a request at now if fewer than ⌊limit⌋ are in flight, counting
// it in flight, and reports whether it did.
func (a *AIMD) Acquire(now time.Duration) bool {
	if a.inFlight >= int(a.limit) {
		return false
	}
	a.inFlight++
	return true
}

// AcquireOver counts a request in flight at now whatever the limit: a
// partitioned limiter admits a partition within its guaranteed share even when
// the limit is full (concurrency-limits' AbstractPartitionedLimiter).
func (a *AIMD) AcquireOver(now time.Duration) { a.inFlight++ }

// Release records the completion at now of an acquired request that took
// latency, and adapts the limit. It panics if nothing is in flight.
func (a *AIMD) Release(now, latency time.Duration) {
	if a.inFlight == 0 {
		panic("algorithms: AIMD.Release without a matching Acquire")
	}
	a.inFlight--
	a.sinceCut++
	switch {
	case latency <= a.cfg.Target:
		if a.limit < a.cfg.Max { // at Max the increase is clamped away: skip its division
			a.limit += 1 / a.limit
		}
	case a.sinceCut >= int(a.limit):
		a.limit *= a.cfg.Backoff
		a.sinceCut = 0
	}
	a.limit = min(max(a.limit, a.cfg.Min), a.cfg.Max)
}

// Limit is the current concurrency limit; ⌊Limit⌋ requests may be in flight.
func (a *AIMD) Limit() float64 { return a.limit }

// InFlight is the number of acquired requests not yet released.
func (a *AIMD) InFlight() int { return a.inFlight }
