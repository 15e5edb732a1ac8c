package algorithms

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// EnvoyRLS is the envoyproxy/ratelimit global rate limit service's Redis
// fixed-window cache (envoyproxy/ratelimit at commit f2fb157, v1.4.0-287-gf2fb157,
// 2026-07-05; src/redis/fixed_cache_impl.go, src/limiter/base_limiter.go,
// src/limiter/cache_key.go, src/utils/utilities.go, src/config/config_impl.go).
// One EnvoyRLS is one descriptor's rate_limit block; its state is one cache key's
// Redis counter plus this instance's local over-limit cache entry.
//
// Rules, each with its source:
//
//   - Windows are aligned to the wall clock: the cache key ends in
//     (now/divider)×divider with now = time.Now().Unix() in whole seconds
//     (cache_key.go GenerateCacheKey), the divider is the unit in seconds:
//     SECOND 1, MINUTE 60, HOUR 3600, DAY 86400, WEEK 604800, MONTH 2592000
//     (30 days), YEAR 31536000 (365 days) (utilities.go UnitToDivider). Virtual
//     t=0 is EnvoyRLSParams.Epoch; a window boundary falls where the wall clock's
//     Unix seconds are a multiple of the divider.
//   - Every hit is counted: the pipeline sends INCRBY key hits_addend before the
//     result is compared (fixed_cache_impl.go DoLimit, pipelineAppend), so a
//     refused request counts too: a client that keeps sending over the limit
//     stays refused until the window ends (the penalty).
//   - Over the limit iff the count after the increment exceeds requests_per_unit
//     (base_limiter.go GetResponseDescriptorStatus: limitAfterIncrease >
//     overLimitThreshold). OK answers carry LimitRemaining = requests_per_unit −
//     count; OVER_LIMIT answers carry 0.
//   - hits_addend is the cost (utilities.go GetHitsAddends; 0 is the product's
//     "check only", which rlsim's cost ≥ 1 cannot express).
//   - Local cache (LOCAL_CACHE_SIZE_IN_BYTES > 0): a key found over the limit is
//     stored in this instance's freecache with a TTL of the whole unit, and while
//     it is there the key is answered OVER_LIMIT without any INCRBY
//     (fixed_cache_impl.go DoLimit skips overlimitIndexes; base_limiter.go sets
//     the entry). The key name changes at the window's end, so the entry acts
//     until the window ends. What it changes: the Redis count stops growing at
//     the first over-limit value, so OverLimitWithLocalCache counts the rest and
//     another replica sharing the key sees a smaller count. It changes no
//     verdict of this instance: within a window the count only grows, so a key
//     once over stays over either way. freecache evicts when full; rlsim models
//     an unbounded cache. Charge (another replica's INCRBY) never sets the entry.
//   - shadow_mode: everything runs as usual (counting, stats, the local cache),
//     then an OVER_LIMIT answer is turned into OK (base_limiter.go, the
//     ShadowMode branch): the request is admitted, Remaining stays 0.
//   - unlimited: the descriptor is never sent to the cache (service/ratelimit.go
//     constructLimitsToCheck); the answer is OK with LimitRemaining MaxUint32.
//     Nothing is counted.
//   - NEAR_LIMIT is not a response code but a statistic: hits above
//     ⌊float32(requests_per_unit)×NEAR_LIMIT_RATIO⌋ (float32 product, as the
//     source computes it; default ratio 0.8, settings.go) are near_limit hits.
//     DecideHits returns the per-request statistic increments
//     (base_limiter.go checkOverLimitThreshold, checkNearLimitThreshold,
//     increaseShadowModeStats); NearLimitThreshold is the threshold.
//
// Headers: the service answers duration_until_reset = divider − unixNow%divider
// in whole seconds (utilities.go CalculateReset), which is also its optional
// RateLimit-Reset header (LIMIT_RESPONSE_HEADERS_ENABLED, default off;
// service/ratelimit.go rateLimitResetHeader); Reset is that figure, which
// exceeds the exact time to the window's end by less than 1s. The service adds
// only RateLimit-Limit, -Remaining and -Reset, no Retry-After, so RetryAfter is
// the exact wait to the window's end (Never when hits_addend >
// requests_per_unit) and RetryAfterExact is true. Limit is requests_per_unit,
// Remaining is LimitRemaining.
//
// Not modelled: EXPIRE and its jitter (the key changes with the window anyway),
// STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT (it only changes requests carrying
// several descriptors: keys not over the limit are not incremented when another
// descriptor's key is over), quota_mode, the per-second Redis, Memcached.
//
// The rule is immutable and safe for concurrent use; each EnvoyRLSState belongs
// to one goroutine.
type EnvoyRLS struct {
	limit    int64         // requests_per_unit
	window   time.Duration // the divider in ns
	off      time.Duration // wall ns at virtual 0, mod window
	near     int64         // NEAR_LIMIT threshold
	shadow   bool
	unlim    bool
	useCache bool
}

// EnvoyRLSTitle names the product lane: product, version and source.
const EnvoyRLSTitle = "envoyproxy/ratelimit (f2fb157, v1.4.0-287; src/redis/fixed_cache_impl.go, src/limiter/base_limiter.go)"

// EnvoyRLSUnit is a rate_limit unit, as written in the service's YAML (any case).
type EnvoyRLSUnit string

// The units of src/utils/utilities.go UnitToDivider.
const (
	EnvoyRLSSecond EnvoyRLSUnit = "SECOND"
	EnvoyRLSMinute EnvoyRLSUnit = "MINUTE"
	EnvoyRLSHour   EnvoyRLSUnit = "HOUR"
	EnvoyRLSDay    EnvoyRLSUnit = "DAY"
	EnvoyRLSWeek   EnvoyRLSUnit = "WEEK"
	EnvoyRLSMonth  EnvoyRLSUnit = "MONTH"
	EnvoyRLSYear   EnvoyRLSUnit = "YEAR"
)

// envoyRLSDividers is UnitToDivider, in seconds.
var envoyRLSDividers = map[EnvoyRLSUnit]int64{
	EnvoyRLSSecond: 1,
	EnvoyRLSMinute: 60,
	EnvoyRLSHour:   3600,
	EnvoyRLSDay:    86400,
	EnvoyRLSWeek:   604800,
	EnvoyRLSMonth:  2592000,
	EnvoyRLSYear:   31536000,
}

// EnvoyRLSParams is one descriptor's rate_limit block and the service settings
// that change its decisions, in the product's words.
type EnvoyRLSParams struct {
	// Unit is rate_limit.unit: SECOND, MINUTE, HOUR, DAY, WEEK, MONTH or YEAR
	// (any case). Required unless Unlimited; must be empty when Unlimited
	// ("should not specify rate limit unit when unlimited", config_impl.go).
	Unit EnvoyRLSUnit
	// RequestsPerUnit is rate_limit.requests_per_unit (a uint32 in the YAML).
	// 0 is accepted, as by the product: every hit is then over the limit.
	RequestsPerUnit int64
	// Unlimited is rate_limit.unlimited: always OK, never counted.
	Unlimited bool
	// ShadowMode is the descriptor's shadow_mode: decide and count, but admit.
	ShadowMode bool
	// NearLimitRatio is NEAR_LIMIT_RATIO; zero means the default 0.8.
	NearLimitRatio float32
	// LocalCache is LOCAL_CACHE_SIZE_IN_BYTES > 0 (default 0: off), with a cache
	// large enough never to evict.
	LocalCache bool
	// Epoch is the wall-clock instant of virtual t=0; the zero Epoch means the
	// Unix epoch, so windows are aligned to t=0 of the virtual clock.
	Epoch time.Time
}

// EnvoyRLSParamsOf translates p: Window must be one of the units (1s, 1m, 1h,
// 24h, 7×24h, 30×24h, 365×24h), Limit becomes RequestsPerUnit (at most
// MaxUint32), and Burst must be 0 or Limit, since a fixed window has no burst
// of its own (its burst is the limit). Epoch is zero: windows aligned to t=0,
// as FixedWindow's.
func EnvoyRLSParamsOf(p Policy) (EnvoyRLSParams, error) {
	var errs []error
	if err := p.Validate(); err != nil {
		errs = append(errs, err)
	}
	var unit EnvoyRLSUnit
	for u, d := range envoyRLSDividers {
		if time.Duration(d)*time.Second == p.Window {
			unit = u
		}
	}
	if unit == "" && p.Window > 0 {
		errs = append(errs, fmt.Errorf("window %v is not a unit (1s, 1m0s, 1h0m0s, 24h, 168h, 720h, 8760h)", p.Window))
	}
	if p.Limit > math.MaxUint32 {
		errs = append(errs, fmt.Errorf("limit %d exceeds requests_per_unit's uint32", p.Limit))
	}
	if p.Burst != 0 && p.Burst != p.Limit {
		errs = append(errs, fmt.Errorf("burst %d: a fixed window's burst is its limit %d", p.Burst, p.Limit))
	}
	if err := errors.Join(errs...); err != nil {
		return EnvoyRLSParams{}, fmt.Errorf("envoy ratelimit: %w", err)
	}
	return EnvoyRLSParams{Unit: unit, RequestsPerUnit: p.Limit}, nil
}

// NewEnvoyRLS returns the rule for x, or every problem with x.
func NewEnvoyRLS(x EnvoyRLSParams) (*EnvoyRLS, error) {
	var errs []error
	unit := EnvoyRLSUnit(strings.ToUpper(string(x.Unit)))
	div, ok := envoyRLSDividers[unit]
	switch {
	case x.Unlimited && unit != "":
		errs = append(errs, errors.New("should not specify rate limit unit when unlimited"))
	case !x.Unlimited && !ok:
		errs = append(errs, fmt.Errorf("invalid rate limit unit %q", string(x.Unit)))
	}
	if x.RequestsPerUnit < 0 || x.RequestsPerUnit > math.MaxUint32 {
		errs = append(errs, fmt.Errorf("requests_per_unit %d is not a uint32", x.RequestsPerUnit))
	}
	ratio := x.NearLimitRatio
	if ratio == 0 {
		ratio = 0.8
	}
	if !(ratio >= 0) || math.IsInf(float64(ratio), 0) {
		errs = append(errs, fmt.Errorf("near limit ratio %v is not a finite non-negative number", x.NearLimitRatio))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("envoy ratelimit: %w", err)
	}
	r := &EnvoyRLS{limit: x.RequestsPerUnit, shadow: x.ShadowMode, unlim: x.Unlimited, useCache: x.LocalCache}
	if x.Unlimited {
		return r, nil
	}
	r.window = time.Duration(div) * time.Second
	r.off = epochOffset(x.Epoch, div)
	// base_limiter.go: uint64(math.Floor(float64(float32(threshold) * nearLimitRatio))).
	r.near = int64(math.Floor(float64(float32(x.RequestsPerUnit) * ratio)))
	return r, nil
}

// epochOffset is the wall-clock time at virtual 0 modulo a unit of div seconds,
// in ns, in [0, div s); 0 for the zero Epoch (taken as the Unix epoch).
func epochOffset(epoch time.Time, div int64) time.Duration {
	if epoch.IsZero() {
		return 0
	}
	sec := epoch.Unix() % div
	if sec < 0 {
		sec += div
	}
	return time.Duration(sec)*time.Second + time.Duration(epoch.Nanosecond())
}

// EnvoyRLSState is one cache key's Redis count in its window and whether this
// instance's local cache holds the key as over the limit: 24 bytes. The zero
// value is a never-seen key.
type EnvoyRLSState struct {
	start  time.Duration // virtual start of the window count belongs to
	count  int64         // the Redis value (INCRBY results)
	cached bool          // in the local over-limit cache (this window)
}

// Window is the virtual start of the window the key's count belongs to; a
// decision that moves it has left the window before (whose near_limit hits
// NearLimitHits said just before).
func (s EnvoyRLSState) Window() time.Duration { return s.start }

// EnvoyRLSHits is what one request adds to the descriptor's statistics
// (ratelimit.service.rate_limit.<key>.*), in hits.
type EnvoyRLSHits struct {
	TotalHits, WithinLimit, NearLimit, OverLimit, OverLimitWithLocalCache, ShadowMode int64
}

// NearLimitThreshold is ⌊float32(requests_per_unit)×NEAR_LIMIT_RATIO⌋: hits
// counted beyond it are near_limit hits.
func (r *EnvoyRLS) NearLimitThreshold() int64 { return r.near }

// current is the virtual start of the window now falls in, as s counts it, and
// the count in it (a now before s's window counts in s's window).
func (r *EnvoyRLS) current(s *EnvoyRLSState, now time.Duration) (start time.Duration, count int64, cached bool) {
	if start = now - (now+r.off)%r.window; start > s.start || (s.count == 0 && !s.cached) {
		return start, 0, false
	}
	return s.start, s.count, s.cached
}

// nearIn is the near_limit hits of a window whose count reached count: each
// hit unit counted between the near-limit threshold and the limit,
// |(0, count] ∩ (threshold, requests_per_unit]|, the sum of what
// checkNearLimitThreshold and checkOverLimitThreshold add hit by hit
// (base_limiter.go at f2fb157). A hit the local cache answers is not counted
// in Redis, and it comes after the count passed the limit, so nothing is
// missed.
func (r *EnvoyRLS) nearIn(count int64) int64 {
	return max(0, min(count, r.limit)-r.near)
}

// NearLimitHits is the near_limit statistic of the key s in the window it
// counts now (ratelimit.service.rate_limit.<key>.near_limit): the hits
// counted beyond NearLimitThreshold and within requests_per_unit. It equals
// the sum of DecideHits' NearLimit over the window's requests, whether they
// were decided by Decide, Admit or Charge; a caller that keeps the statistic
// over a run adds it up each time a decision moves s to a new Window.
func (r *EnvoyRLS) NearLimitHits(s *EnvoyRLSState) int64 {
	if r.unlim {
		return 0
	}
	return r.nearIn(s.count)
}

// Decide answers a request of cost hits (hits_addend ≥ 1) at now.
func (r *EnvoyRLS) Decide(s *EnvoyRLSState, now time.Duration, cost int64) Decision {
	d, _ := r.DecideHits(s, now, cost)
	return d
}

// DecideHits is Decide with the request's statistic increments.
func (r *EnvoyRLS) DecideHits(s *EnvoyRLSState, now time.Duration, cost int64) (Decision, EnvoyRLSHits) {
	if cost < 1 {
		badCost("EnvoyRLS.Decide", cost)
	}
	if r.unlim {
		return Decision{Remaining: math.MaxUint32, RetryAfterExact: true}, EnvoyRLSHits{}
	}
	h := EnvoyRLSHits{TotalHits: cost}
	start, count, cached := r.current(s, now)
	into := (now + r.off) % r.window
	d := Decision{
		Limit:           r.limit,
		Reset:           r.window - into.Truncate(time.Second), // divider − unixNow%divider, whole seconds
		RetryAfterExact: true,
	}
	over := true
	switch {
	case r.useCache && cached:
		h.OverLimit, h.OverLimitWithLocalCache = cost, cost
	default:
		before := count
		count = satAdd(count, cost)
		if count > r.limit {
			// checkOverLimitThreshold
			if before >= r.limit {
				h.OverLimit = cost
			} else {
				h.OverLimit = count - r.limit
				h.NearLimit = r.limit - max(r.near, before)
			}
			cached = r.useCache
		} else {
			over = false
			d.Remaining = r.limit - count
			h.WithinLimit = cost
			if count > r.near { // checkNearLimitThreshold
				if before >= r.near {
					h.NearLimit = cost
				} else {
					h.NearLimit = count - r.near
				}
			}
		}
	}
	s.start, s.count, s.cached = start, count, cached
	if !over {
		return d, h
	}
	if r.shadow {
		if (r.useCache && h.OverLimitWithLocalCache > 0) || count-cost >= r.limit {
			h.ShadowMode = cost
		} else {
			h.ShadowMode = count - r.limit
		}
		return d, h
	}
	d.Verdict = Refuse
	d.RetryAfter = start + r.window - now
	if cost > r.limit {
		d.RetryAfter = Never
	}
	return d, h
}

// Idle reports whether s decides exactly as a never-seen key from now on:
// nothing counted, or its window is over.
func (r *EnvoyRLS) Idle(s *EnvoyRLSState, now time.Duration) bool {
	return r.unlim || (s.count == 0 && !s.cached) || now >= s.start+r.window
}

// Charge is another replica's INCRBY of cost in now's window; it leaves this
// instance's local cache as it is.
func (r *EnvoyRLS) Charge(s *EnvoyRLSState, now time.Duration, cost int64) {
	if cost < 1 {
		badCost("EnvoyRLS.Charge", cost)
	}
	if r.unlim {
		return
	}
	start, count, cached := r.current(s, now)
	s.start, s.count, s.cached = start, satAdd(count, cost), cached
}

var (
	_ Algorithm[EnvoyRLSState] = (*EnvoyRLS)(nil)
	_ Charging[EnvoyRLSState]  = (*EnvoyRLS)(nil)
)
