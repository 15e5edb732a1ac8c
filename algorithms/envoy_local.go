package algorithms

import (
	"errors"
	"fmt"
	"math"
	"time"
)

// EnvoyRefill is how an Envoy local rate limit token bucket refills.
type EnvoyRefill uint8

const (
	// EnvoyContinuous is current Envoy (the default since PR #35207, July 2024,
	// runtime guard envoy.reloadable_features.no_timer_based_rate_limit_token_bucket;
	// the only path since PR #38197, January 2025): an AtomicTokenBucketImpl
	// refilled lazily at tokens_per_fill/fill_interval tokens per second, in
	// float64 seconds.
	EnvoyContinuous EnvoyRefill = iota
	// EnvoyStepwise is older Envoy: a timer adds tokens_per_fill every
	// fill_interval, capped at max_tokens.
	EnvoyStepwise
)

func (r EnvoyRefill) String() string {
	switch r {
	case EnvoyContinuous:
		return "continuous"
	case EnvoyStepwise:
		return "stepwise"
	}
	return fmt.Sprintf("EnvoyRefill(%d)", uint8(r))
}

// EnvoyStart is the level a bucket starts at.
type EnvoyStart uint8

const (
	// EnvoyStartFull is Envoy's behaviour: "max_tokens ... is also the number of
	// tokens that the bucket initially contains" (api/envoy/type/v3/token_bucket.proto).
	EnvoyStartFull EnvoyStart = iota
	// EnvoyStartTokens starts every bucket at EnvoyLocalParams.StartTokens (0 =
	// empty): not configurable in the filter; a what-if, built the way
	// AtomicTokenBucketImpl's initial_tokens form does it (time −= tokens/fill_rate).
	EnvoyStartTokens
)

// EnvoyLocalParams is the token_bucket of Envoy's HTTP local rate limit filter
// (envoy.filters.http.local_ratelimit, api/envoy/type/v3/token_bucket.proto), in
// Envoy's words and units, plus the two behaviours rlsim lets you choose.
type EnvoyLocalParams struct {
	// MaxTokens is `max_tokens` (uint32, required): the bucket size and its
	// initial content. Current Envoy main treats 0 as "always reject"
	// (always_deny_default_); rlsim requires ≥ 1.
	MaxTokens int64
	// TokensPerFill is `tokens_per_fill` (UInt32Value): tokens added each
	// fill_interval. 0 means the default, 1.
	TokensPerFill int64
	// FillInterval is `fill_interval` (Duration, required). Envoy reads it in
	// whole milliseconds (PROTOBUF_GET_MS_OR_DEFAULT, truncating) and refuses
	// less than 50ms ("local rate limit token bucket fill timer must be >= 50ms",
	// LocalRateLimiterImpl's constructor).
	FillInterval time.Duration
	// Refill chooses the refill; the zero value is current Envoy's continuous one.
	Refill EnvoyRefill
	// Start and StartTokens choose the starting level; the zero value is full.
	Start       EnvoyStart
	StartTokens int64
	// MonotonicStart is Envoy's steady-clock reading when the filter was created
	// (continuous refill only). Current Envoy computes in float64 seconds of that
	// clock, so its rounding depends on the clock's magnitude; 0 by default.
	MonotonicStart time.Duration
}

// EnvoyLocalParamsOf translates p into a token_bucket: max_tokens =
// EffectiveBurst, and tokens_per_fill/fill_interval = Limit/Window with the
// finest fill that keeps the rate exact: Window must be whole milliseconds
// (Envoy's unit); with g the largest divisor of gcd(Limit, Window in ms) such
// that Window/g ≥ 50ms, tokens_per_fill = Limit/g and fill_interval = Window/g.
// A Window under 50ms is first scaled up by k = ⌈50ms/Window⌉ (tokens_per_fill =
// k×Limit, fill_interval = k×Window). Refill is continuous.
//
// The finest fill matters for the stepwise refill: with the natural
// tokens_per_fill = Limit and fill_interval = Window, a max_tokens below Limit
// throws away most of each fill (a steady client at exactly the limit is served
// max_tokens per Window, not Limit; TestEnvoyStepwiseNaturalUnderserves).
// It fails when Window is not whole milliseconds, or a field exceeds uint32.
func EnvoyLocalParamsOf(p Policy) (EnvoyLocalParams, error) {
	if err := p.Validate(); err != nil {
		return EnvoyLocalParams{}, fmt.Errorf("envoy local rate limit: %w", err)
	}
	var errs []error
	if p.Window%time.Millisecond != 0 {
		errs = append(errs, fmt.Errorf("window %v is not whole milliseconds (fill_interval's unit)", p.Window))
	}
	burst := p.EffectiveBurst()
	if burst > math.MaxUint32 {
		errs = append(errs, fmt.Errorf("burst %d exceeds max_tokens' uint32", burst))
	}
	if err := errors.Join(errs...); err != nil {
		return EnvoyLocalParams{}, fmt.Errorf("envoy local rate limit: %w", err)
	}
	wms, tpf := int64(p.Window/time.Millisecond), p.Limit
	if wms < 50 {
		k := (50 + wms - 1) / wms
		wms, tpf = wms*k, tpf*k
	}
	g := gcd(tpf, wms)
	best := int64(1)
	for d := int64(1); d*d <= g; d++ {
		if g%d != 0 {
			continue
		}
		for _, c := range [2]int64{d, g / d} {
			if wms/c >= 50 && c > best {
				best = c
			}
		}
	}
	tpf, wms = tpf/best, wms/best
	if tpf > math.MaxUint32 {
		return EnvoyLocalParams{}, fmt.Errorf("envoy local rate limit: tokens_per_fill %d exceeds uint32", tpf)
	}
	return EnvoyLocalParams{MaxTokens: burst, TokensPerFill: tpf, FillInterval: time.Duration(wms) * time.Millisecond}, nil
}

// EnvoyLocal is Envoy's HTTP local rate limit token bucket
// (envoy.filters.http.local_ratelimit; Envoy main after PR #35207 and the
// timer-era filter, source/common/common/token_bucket_impl.{h,cc} and
// source/extensions/filters/common/local_ratelimit/local_ratelimit_impl.cc),
// one per key (a descriptor's bucket; the filter's default bucket is one key).
// Both refills are built, in Envoy's own arithmetic:
//
// Continuous (Envoy main after PR #35207; read at source/common/common/
// token_bucket_impl.{h,cc} and source/extensions/filters/common/local_ratelimit/
// local_ratelimit_impl.cc, RateLimitTokenBucket): fill_rate =
// max(tokens_per_fill / (fill_interval_ms/1000.0), 1/31536000) tokens per second
// (float64). The whole state is one float64, time_in_seconds; the clock is
// float64 seconds of the steady clock, ns/1e9. The bucket starts full:
// time_in_seconds = start − max_tokens/fill_rate. A request of cost computes
// total = min(max_tokens, (now − time_in_seconds)×fill_rate) and is refused,
// changing nothing, if total < cost; otherwise time_in_seconds = now −
// (total − cost)/fill_rate. Remaining is Envoy's remainingTokens(),
// uint64(min(max_tokens, (now − time_in_seconds)×fill_rate)) after the decision.
//
// Stepwise (releases before PR #35207, i.e. 1.31 and earlier, and the runtime
// guard set false until PR #38197 removed it; versions inferred from the PRs'
// merge dates, July 2024 and January 2025; read at
// local_ratelimit_impl.cc onFillTimer/onFillTimerHelper/requestAllowedHelper,
// commit 016c0c80): tokens_ is a uint32 starting at max_tokens; a timer armed
// fill_interval after the filter starts, and re-armed on each fill, sets tokens =
// min(max_tokens, tokens + tokens_per_fill); a request is refused when tokens is
// 0, else takes one. rlsim idealises the timer: fills happen at exactly
// k×fill_interval, k ≥ 1, aligned to the filter's start t=0 (the real timer
// drifts late by its dispatch latency each fill), and a fill due at t is applied
// before a request at t. A request of cost > 1 needs cost tokens and takes them
// (current Envoy's hits_addend; the timer-era filter took one per request).
// Reset in this mode is Envoy's x-ratelimit-reset, remainingFillInterval():
// whole seconds of fill_interval − ⌊elapsed since the last fill⌋s.
//
// Envoy answers a limited request with 429 (the filter's `status`) and
// x-envoy-ratelimited, and sends no Retry-After: RetryAfter is the exact wait,
// the first nanosecond at which the bucket would hold cost tokens if nothing
// else arrived (RetryAfterExact). Never when cost > max_tokens. Limit is
// max_tokens (x-ratelimit-limit). In the continuous mode Reset is the time
// until the bucket is full, computed in float64 (to within a few ns; Envoy's
// own header is in seconds).
//
// The rule is immutable and safe for concurrent use; a state belongs to one
// goroutine.
type EnvoyLocal struct {
	refill   EnvoyRefill
	max      int64
	tpf      int64
	fill     time.Duration
	start    int64 // starting level, stepwise
	maxd     float64
	rate     float64 // fill_rate, tokens per second
	tinit    float64 // time_in_seconds of a never-used bucket
	monoBase time.Duration
}

// EnvoyLocalState is one bucket: 32 bytes. The zero value is a bucket never used
// since the filter started.
type EnvoyLocalState struct {
	t     float64 // continuous: time_in_seconds
	level int64   // stepwise: tokens after fill number k (may go negative after Charge)
	k     int64   // stepwise: fills applied
	// used is false for a never-used bucket (time_in_seconds = tinit, or the
	// starting level at fill 0); k and level hold the stepwise state as well.
	used bool
}

var (
	_ Algorithm[EnvoyLocalState] = (*EnvoyLocal)(nil)
	_ Charging[EnvoyLocalState]  = (*EnvoyLocal)(nil)
)

// kMinFillRate is Envoy's floor on fill_rate: "one second every year".
const envoyMinFillRate = 1.0 / (365 * 24 * 60 * 60)

// NewEnvoyLocal returns the bucket rule for x, or every problem with x.
func NewEnvoyLocal(x EnvoyLocalParams) (*EnvoyLocal, error) {
	var errs []error
	if x.MaxTokens < 1 || x.MaxTokens > math.MaxUint32 {
		errs = append(errs, fmt.Errorf("max_tokens must be 1..%d, got %d", uint32(math.MaxUint32), x.MaxTokens))
	}
	tpf := x.TokensPerFill
	if tpf == 0 {
		tpf = 1
	}
	if tpf < 0 || tpf > math.MaxUint32 {
		errs = append(errs, fmt.Errorf("tokens_per_fill must be 1..%d, got %d", uint32(math.MaxUint32), x.TokensPerFill))
	}
	fill := x.FillInterval.Truncate(time.Millisecond)
	if fill < 50*time.Millisecond {
		errs = append(errs, fmt.Errorf("fill_interval %v: local rate limit token bucket fill timer must be >= 50ms", x.FillInterval))
	}
	if x.Refill > EnvoyStepwise {
		errs = append(errs, fmt.Errorf("unknown refill %v", x.Refill))
	}
	start := x.MaxTokens
	switch x.Start {
	case EnvoyStartFull:
	case EnvoyStartTokens:
		if x.StartTokens < 0 || x.StartTokens > x.MaxTokens {
			errs = append(errs, fmt.Errorf("start tokens must be 0..max_tokens %d, got %d", x.MaxTokens, x.StartTokens))
		}
		start = x.StartTokens
	default:
		errs = append(errs, fmt.Errorf("unknown start %d", x.Start))
	}
	if x.MonotonicStart < 0 {
		errs = append(errs, fmt.Errorf("monotonic start must not be negative, got %v", x.MonotonicStart))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("envoy local rate limit: %w", err)
	}
	e := &EnvoyLocal{refill: x.Refill, max: x.MaxTokens, tpf: tpf, fill: fill, start: start,
		maxd: float64(x.MaxTokens), monoBase: x.MonotonicStart}
	// RateLimitTokenBucket: tokens_per_fill / std::chrono::duration<double>(fill_interval).count()
	e.rate = max(math.Abs(float64(tpf)/(float64(fill/time.Millisecond)/1000)), envoyMinFillRate)
	e.tinit = e.seconds(0)
	if x.Start == EnvoyStartFull {
		e.tinit -= e.maxd / e.rate
	} else if start != 0 {
		e.tinit -= float64(start) / e.rate
	}
	return e, nil
}

// seconds is timeNowInSeconds(): duration<double>(steady ns).count() = ns/1e9.
func (e *EnvoyLocal) seconds(now time.Duration) float64 {
	return float64(int64(e.monoBase+now)) / 1e9
}

// total is min(max_tokens, (now − t)×fill_rate), as std::min does it.
func (e *EnvoyLocal) total(t float64, now time.Duration) float64 {
	if x := (e.seconds(now) - t) * e.rate; x < e.maxd {
		return x
	}
	return e.maxd
}

func (e *EnvoyLocal) timeOf(s *EnvoyLocalState) float64 {
	if s.used {
		return s.t
	}
	return e.tinit
}

// Decide admits or refuses a request of cost tokens at now.
func (e *EnvoyLocal) Decide(s *EnvoyLocalState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("EnvoyLocal.Decide", cost)
	}
	if e.refill == EnvoyStepwise {
		return e.decideStepwise(s, now, cost)
	}
	d := Decision{Limit: e.max, RetryAfterExact: true}
	t := e.timeOf(s)
	total := e.total(t, now)
	c := float64(cost)
	if total < c { // cb returns 0: nothing consumed
		d.Verdict = Refuse
		d.RetryAfter = e.waitFor(t, now, c)
	} else {
		t = e.seconds(now) - (total-c)/e.rate
		s.t, s.used = t, true
		total = e.total(t, now)
	}
	if total >= 1 {
		d.Remaining = int64(total)
	}
	if total < e.maxd {
		d.Reset = max(time.Duration(math.Ceil((t+e.maxd/e.rate)*1e9))-e.monoBase-now, 0)
	}
	return d
}

// waitFor is the least d ≥ 1ns after which total(t, now+d) ≥ c, found by
// search on Envoy's own float arithmetic (total is monotone in time); Never if
// c > max_tokens.
func (e *EnvoyLocal) waitFor(t float64, now time.Duration, c float64) time.Duration {
	if c > e.maxd {
		return Never
	}
	ok := func(d time.Duration) bool { return !(e.total(t, now+d) < c) }
	g := ((t + c/e.rate) - e.seconds(now)) * 1e9
	if g > 1e18 { // beyond any run (31 years): not worth the search
		return Never
	}
	guess := time.Duration(g) + 1
	lo, hi := time.Duration(0), max(guess, 1) // ok(lo) is false
	for step := time.Duration(2); !ok(hi); step *= 2 {
		lo, hi = hi, hi+step
	}
	// The guess is within a few ns: gallop down from hi to a d that is not
	// enough, and bisect only what is left (total being monotone, every
	// search finds the one least d).
	for step := time.Duration(1); hi-lo > 1; step *= 2 {
		l := max(hi-step, lo+1)
		if !ok(l) {
			lo = l
			break
		}
		hi = l
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if ok(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// fillsAt is the number of timer fills at or before now (t=0 is the filter's start).
func (e *EnvoyLocal) fillsAt(now time.Duration) int64 {
	if now < 0 {
		return 0
	}
	return int64(now / e.fill)
}

// levelAt is the stepwise level after fill k ≥ the state's.
func (e *EnvoyLocal) levelAt(s *EnvoyLocalState, k int64) int64 {
	level, from := e.start, int64(0)
	if s.used {
		level, from = s.level, s.k
	}
	if k <= from {
		return level
	}
	if level >= e.max {
		return level // only Charge's debt can be below; nothing fills above max
	}
	if n := k - from; n > (e.max-level)/e.tpf {
		return e.max
	}
	return min(e.max, level+(k-from)*e.tpf)
}

func (e *EnvoyLocal) decideStepwise(s *EnvoyLocalState, now time.Duration, cost int64) Decision {
	d := Decision{Limit: e.max, RetryAfterExact: true}
	kNow := e.fillsAt(now)
	k := kNow
	if s.used && k < s.k { // time went backwards: no fill is undone
		k = s.k
	}
	level := e.levelAt(s, k)
	switch {
	case cost > e.max:
		d.Verdict, d.RetryAfter = Refuse, Never
	case level < cost:
		fills := (cost - level + e.tpf - 1) / e.tpf
		d.Verdict = Refuse
		d.RetryAfter = time.Duration(k+fills)*e.fill - now
	default:
		level -= cost
		s.level, s.k, s.used = level, k, true
	}
	d.Remaining = max(level, 0)
	// remainingFillInterval(): ToInt64Seconds(fill_interval − Seconds((now − fill_time)/1s)).
	elapsed := now - time.Duration(kNow)*e.fill
	d.Reset = (e.fill - elapsed.Truncate(time.Second)).Truncate(time.Second)
	return d
}

// Idle reports whether the bucket is full at now and so is a never-used one,
// and so decides as a never-used bucket from now on.
func (e *EnvoyLocal) Idle(s *EnvoyLocalState, now time.Duration) bool {
	if !s.used {
		return true
	}
	if e.refill == EnvoyStepwise {
		k := e.fillsAt(now)
		if k < s.k {
			return false
		}
		var fresh EnvoyLocalState
		return e.levelAt(s, k) == e.levelAt(&fresh, k)
	}
	return e.total(s.t, now) == e.maxd && e.total(e.tinit, now) == e.maxd
}

// Charge takes cost tokens at now whether they are there or not: current Envoy's
// consume template allows "consumed larger than total ... future tokens are
// consumed"; stepwise, the level goes below zero.
func (e *EnvoyLocal) Charge(s *EnvoyLocalState, now time.Duration, cost int64) {
	if e.refill == EnvoyStepwise {
		k := e.fillsAt(now)
		if s.used && k < s.k {
			k = s.k
		}
		level := e.levelAt(s, k)
		if level < math.MinInt64/2+cost {
			level = math.MinInt64 / 2
		} else {
			level -= cost
		}
		s.level, s.k, s.used = level, k, true
		return
	}
	t := e.timeOf(s)
	s.t, s.used = e.seconds(now)-(e.total(t, now)-float64(cost))/e.rate, true
}
