package algorithms

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// TraefikParams are the options of Traefik's RateLimit middleware, in its own
// words and units (Traefik v3.7.9, pkg/config/dynamic/middlewares.go, type
// RateLimit; the same fields and defaults in v2.11.53). The zero value is
// Traefik's default: no limit.
type TraefikParams struct {
	// Average is `average`: requests per Period allowed per source. 0 (the
	// default) means no rate limiting: Traefik sets the rate to rate.Inf.
	Average int64
	// Period is `period`: with Average, the rate is Average/Period. 0 means the
	// default, 1s; negative is an error ("negative value not valid for period").
	Period time.Duration
	// Burst is `burst`: the bucket size, "the maximum number of requests allowed
	// to arrive in the same arbitrarily small period of time". Traefik uses
	// max(Burst, 1), so 0 (the default) means 1.
	Burst int64
}

// TraefikParamsOf translates p into Traefik's options: average = Limit,
// period = Window, burst = EffectiveBurst, so rate = Limit/Window as the float64
// Traefik computes. It fails when Limit×1e9 overflows int64, as Traefik's own
// Average×int64(time.Second) would.
func TraefikParamsOf(p Policy) (TraefikParams, error) {
	if err := p.Validate(); err != nil {
		return TraefikParams{}, fmt.Errorf("traefik: %w", err)
	}
	if p.Limit > math.MaxInt64/int64(time.Second) {
		return TraefikParams{}, fmt.Errorf("traefik: limit %d × 1e9 overflows int64 (average×time.Second)", p.Limit)
	}
	return TraefikParams{Average: p.Limit, Period: p.Window, Burst: p.EffectiveBurst()}, nil
}

// Traefik is Traefik's RateLimit middleware with its in-memory limiter
// (Traefik v3.7.9, pkg/middlewares/ratelimiter/rate_limiter.go and
// in_memory_limiter.go; unchanged from v2.11.53), one golang.org/x/time/rate
// Limiter per source, decided exactly as x/time/rate v0.15.0's float64 arithmetic
// decides:
//
//   - rate = float64(average×int64(time.Second)) / float64(period) tokens per
//     second, bucket size max(burst, 1); average ≤ 0: no limit (rate.Inf).
//   - maxDelay = 500ms if rate < 1, else time.Second / (time.Duration(rate)×2),
//     with the rate truncated to a whole number first (rate 1.9/s gives 500ms).
//   - A request calls Reserve: tokens = min(burst, tokens + elapsed.Seconds()×rate),
//     then tokens −= 1; if negative, the wait is time.Duration((−tokens/rate)×1e9)
//     (truncated). If the wait exceeds maxDelay the reservation is cancelled
//     (Reservation.CancelAt at the same instant: tokens = min(burst, tokens + 1),
//     which in float64 need not restore the bit pattern exactly; CancelAt's
//     lastEvent bookkeeping never matters here, as Traefik cancels a reservation
//     before any other is made) and the request
//     is refused with 429, Retry-After ⌈delay.Seconds()⌉ and X-Retry-In; otherwise
//     it waits the delay and proceeds (Delay verdict, or Admit when the wait is 0).
//   - A source's Limiter lives in a TTL map (ttlmap, Unix-second expiry): every
//     request resets its expiry to now+ttl, ttl = 2s if rate ≥ 1, else
//     1 + int(1/rate) s; a request finding it expired (expiry ≤ now, in whole
//     Unix seconds) gets a new, full Limiter. rlsim assumes the run starts on a
//     whole Unix second, so a Unix second is ⌊now/1s⌋. The map's 65536-source
//     capacity is left to Keyed's eviction.
//
// Traefik ignores the source extractor's amount ("ignoring token bucket amount
// > 1"): every request takes 1 token. rlsim extends this to cost units by
// reserving cost tokens (ReserveN); cost > burst is refused as Traefik refuses a
// reservation that is not OK ("No bursty traffic allowed", 429, no Retry-After:
// RetryAfter = Never).
//
// RetryAfter on a refusal is Traefik's Retry-After header, ⌈delay⌉ in whole
// seconds (RetryAfterExact false; the exact delay is in X-Retry-In). Traefik sends
// no RateLimit headers: Limit is average, Remaining the whole tokens left after the
// decision, Reset the time until the bucket is full, both x/time/rate's figures.
//
// The rule is immutable and safe for concurrent use; a state belongs to one
// goroutine.
type Traefik struct {
	average   int64
	rate      float64 // tokens per second, x/time/rate's Limit
	burst     int64
	maxDelay  time.Duration
	ttl       int64 // seconds
	unlimited bool
}

// TraefikState is one source's Limiter: 32 bytes. The zero value is a source
// with no Limiter yet (Traefik creates a full one on its first request).
type TraefikState struct {
	tokens float64
	last   time.Duration // x/time/rate's last: the instant tokens was computed at
	access time.Duration // the source's last request, for the TTL map's expiry
	seen   bool
}

var (
	_ Algorithm[TraefikState] = (*Traefik)(nil)
	_ Charging[TraefikState]  = (*Traefik)(nil)
)

// NewTraefik returns Traefik's middleware for x, or every problem with x.
func NewTraefik(x TraefikParams) (*Traefik, error) {
	var errs []error
	if x.Period < 0 {
		errs = append(errs, fmt.Errorf("negative value not valid for period: %v", x.Period))
	}
	if x.Average > math.MaxInt64/int64(time.Second) {
		errs = append(errs, fmt.Errorf("average %d × 1e9 overflows int64", x.Average))
	}
	if x.Burst > math.MaxInt32 {
		errs = append(errs, fmt.Errorf("burst %d exceeds x/time/rate's int burst", x.Burst))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("traefik: %w", err)
	}
	period := x.Period
	if period == 0 {
		period = time.Second
	}
	t := &Traefik{average: x.Average, burst: max(x.Burst, 1), unlimited: x.Average <= 0, ttl: 1}
	if t.unlimited {
		t.rate = math.Inf(1)
		t.ttl = 2 // rtl ≥ 1 for rate.Inf
		return t, nil
	}
	t.rate = float64(x.Average*int64(time.Second)) / float64(period)
	if t.rate < 1 {
		t.maxDelay = 500 * time.Millisecond
	} else {
		t.maxDelay = time.Second / (time.Duration(t.rate) * 2)
	}
	if t.rate >= 1 {
		t.ttl = 2
	} else {
		t.ttl = 1 + int64(1/t.rate)
	}
	return t, nil
}

// MaxDelay is the longest wait Traefik lets a request take before refusing it.
func (t *Traefik) MaxDelay() time.Duration { return t.maxDelay }

// fresh reports whether the source has no live Limiter at now: never seen, or
// its TTL-map entry expired (expiry ⌊access⌋+ttl ≤ ⌊now⌋ in whole seconds).
func (t *Traefik) fresh(s *TraefikState, now time.Duration) bool {
	return !s.seen || floorSec(s.access)+t.ttl <= floorSec(now)
}

func floorSec(d time.Duration) int64 {
	q := int64(d / time.Second)
	if d%time.Second < 0 {
		q--
	}
	return q
}

// advance is x/time/rate's Limiter.advance(now) on a live Limiter.
func (t *Traefik) advance(s *TraefikState, now time.Duration) float64 {
	last := s.last
	if now < last {
		last = now
	}
	tokens := s.tokens + (now-last).Seconds()*t.rate
	if burst := float64(t.burst); tokens > burst {
		tokens = burst
	}
	return tokens
}

// durationFromTokens is x/time/rate's Limit.durationFromTokens.
func (t *Traefik) durationFromTokens(tokens float64) time.Duration {
	d := (tokens / t.rate) * float64(time.Second)
	if d > float64(math.MaxInt64) {
		return Never
	}
	return time.Duration(d)
}

// Decide reserves cost tokens at now and admits, delays or refuses the request.
func (t *Traefik) Decide(s *TraefikState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("Traefik.Decide", cost)
	}
	d := Decision{Limit: t.average}
	if t.unlimited {
		d.Remaining = t.burst
		return d
	}
	if t.fresh(s, now) { // a new Limiter: tokens = burst, whatever advance adds
		s.tokens, s.last = float64(t.burst), now
	}
	s.seen, s.access = true, now
	tokens := t.advance(s, now) - float64(cost)
	var wait time.Duration
	if tokens < 0 {
		wait = t.durationFromTokens(-tokens)
	}
	switch {
	case cost > t.burst: // reservation not OK: the Limiter is untouched
		d.Verdict, d.RetryAfter = Refuse, Never
		tokens = t.advance(s, now)
	case wait > t.maxDelay: // reserved, then cancelled at once: CancelAt(now)
		s.last = now
		restored := tokens + float64(cost) // advance(now) adds 0s×rate = 0
		if burst := float64(t.burst); restored > burst {
			restored = burst
		}
		s.tokens = restored
		tokens = restored
		d.Verdict = Refuse
		d.RetryAfter = retryAfterHeader(wait)
	default:
		s.tokens, s.last = tokens, now
		if wait > 0 {
			d.Verdict, d.Delay = Delay, wait
		}
	}
	if tokens >= 1 {
		d.Remaining = int64(tokens)
	}
	if tokens < float64(t.burst) {
		d.Reset = t.durationFromTokens(float64(t.burst) - tokens)
	}
	return d
}

// retryAfterHeader is Traefik's Retry-After: fmt "%.0f" of ⌈delay.Seconds()⌉.
func retryAfterHeader(delay time.Duration) time.Duration {
	if delay >= 0 && delay < exactSeconds {
		// Seconds() is whole seconds plus ns/1e9, which rounds to neither
		// neighbouring whole second below 2²² s: its ceiling in integers.
		sec := delay / time.Second
		if delay%time.Second != 0 {
			sec++
		}
		return sec * time.Second
	}
	sec := math.Ceil(delay.Seconds())
	if sec >= float64(math.MaxInt64/int64(time.Second)) {
		return Never
	}
	return time.Duration(sec) * time.Second
}

// exactSeconds bounds the delays whose Seconds() lies strictly between two
// whole seconds unless whole: below 2²² s a float64's ulp is at most 2⁻³⁰ s,
// under half of the 1ns that the fraction keeps from either.
const exactSeconds = (1 << 22) * time.Second

// Idle reports whether the source's Limiter has expired from the TTL map at now,
// or is full, so that it decides as a new one: a full Limiter and a new one both
// hold burst tokens at every later instant.
func (t *Traefik) Idle(s *TraefikState, now time.Duration) bool {
	return t.unlimited || t.fresh(s, now) || (now >= s.last && t.advance(s, now) == float64(t.burst))
}

// Charge takes cost tokens at now, below zero if need be, as a reservation kept
// whatever its delay.
func (t *Traefik) Charge(s *TraefikState, now time.Duration, cost int64) {
	if t.unlimited {
		return
	}
	if t.fresh(s, now) {
		s.tokens, s.last = float64(t.burst), now
	}
	s.seen, s.access = true, now
	s.tokens, s.last = t.advance(s, now)-float64(cost), now
}
