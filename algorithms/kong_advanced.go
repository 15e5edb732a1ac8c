package algorithms

import (
	"errors"
	"fmt"
	"time"
)

// KongAdvanced is Kong Gateway Enterprise's rate-limiting-advanced plugin with
// one limit and window_size pair, held to its documentation only (the plugin's
// source is not public). Pages read:
//
//	[RLA]  developer.konghq.com/plugins/rate-limiting-advanced
//	       (Kong/developer.konghq.com app/_kong_plugins/rate-limiting-advanced/index.md @a0d5c20)
//	[WT]   developer.konghq.com/gateway/rate-limiting/window-types
//	       (Kong/developer.konghq.com app/gateway/rate-limiting/window-types.md @082e595)
//	[LIB]  docs.konghq.com/gateway/latest/reference/rate-limiting
//	       ("kong.tools.public.rate-limiting - Clustered, performant rate limiting for Kong")
//	[OV]   Kong/docs.konghq.com app/_hub/kong-inc/rate-limiting-advanced/overview/_index.md @81d07da
//
// Rules, each with its source:
//
//   - Windows are fixed buckets whose floor is aligned to the Unix clock: a
//     60-second window starts at second 0 of every minute, a 30-second one at
//     seconds 0 and 30 [LIB]. Virtual t=0 is KongAdvancedParams.Epoch.
//   - window_type sliding (the default [RLA], [WT]): rate = current +
//     previous × weight, weight = (window_size − (time() % window_size)) /
//     window_size with time() the Unix timestamp [LIB], which the library takes
//     at second precision (ngx.time(), [LIB] strategy:get_counters): the weight
//     steps once a second. fixed: weight 0, rate = current [LIB].
//   - increment returns the rate after this request's increment [LIB]; 12
//     requests in one minute against 10 per 60 s admit 10 and refuse 2 [WT], so
//     a request is refused iff that rate exceeds the limit.
//   - disable_penalty false (the default): "all requests, including denied ones,
//     will still be counted toward the rate limit" [RLA], so a client over the
//     rate stays blocked ("The algorithm counts the response 429 and the API is
//     blocked indefinitely" [WT]). true: a denied request is not counted.
//   - Rates are compared exactly here, as rationals: previous×(W−e) +
//     current×W > limit×W. Kong computes them in Lua doubles; the two can differ
//     only where the rate equals the limit exactly up to rounding.
//
// Headers: Kong sends RateLimit-Limit/-Remaining/-Reset, X-RateLimit-*-<window>
// and Retry-After on a 429 [OV], but the pages do not say how Remaining, Reset
// or Retry-After are computed ("Retry-After may increase due to the rate
// calculation for the sliding window" [OV]). So Decision carries this model's
// exact figures: RetryAfter is the wait to the first whole second at which the
// same request would be admitted if nothing else arrived (RetryAfterExact
// true), Remaining is ⌊limit − rate⌋, Reset the wait until the counters are
// empty, each rounded as the sliding or fixed window counter rounds it.
//
// Not modelled: several limit/window_size pairs (each is its own counter, all
// enforced: chain several KongAdvanced), strategies cluster/redis and sync_rate
// (periodic diff pushes; local per node between them), throttling (3.12+),
// consumer groups.
//
// The rule is immutable and safe for concurrent use; each KongAdvancedState
// belongs to one goroutine.
type KongAdvanced struct {
	sliding bool
	penalty bool
	sw      *SlidingWindowCounter
	fw      *FixedWindow
	esec    int64
	ensec   time.Duration
	base    int64 // a multiple of window_size at or before the epoch, in Unix seconds
}

// KongAdvancedTitle names the product lane: product and the pages it follows.
const KongAdvancedTitle = "Kong rate-limiting-advanced (Kong Gateway Enterprise docs: developer.konghq.com/plugins/rate-limiting-advanced, /gateway/rate-limiting/window-types)"

// KongAdvancedWindowType is config.window_type.
type KongAdvancedWindowType string

// The window types of [RLA].
const (
	KongSliding KongAdvancedWindowType = "sliding"
	KongFixed   KongAdvancedWindowType = "fixed"
)

// KongAdvancedParams is rate-limiting-advanced's config for one limit.
type KongAdvancedParams struct {
	// Limit is config.limit[0]: requests per window.
	Limit int64
	// WindowSize is config.window_size[0], in seconds.
	WindowSize int64
	// WindowType is config.window_type; empty means sliding (the default).
	WindowType KongAdvancedWindowType
	// DisablePenalty is config.disable_penalty (default false: denied requests count).
	DisablePenalty bool
	// Epoch is the wall-clock instant of virtual t=0; the zero Epoch means the
	// Unix epoch, so windows are aligned to t=0.
	Epoch time.Time
}

// KongAdvancedParamsOf translates p: Window must be whole seconds, Limit is the
// limit, the window type sliding with the default penalty. Burst must be 0 or
// Limit: the counters have no burst of their own.
func KongAdvancedParamsOf(p Policy) (KongAdvancedParams, error) {
	var errs []error
	if err := p.Validate(); err != nil {
		errs = append(errs, err)
	}
	if p.Window > 0 && p.Window%time.Second != 0 {
		errs = append(errs, fmt.Errorf("window %v is not whole seconds (window_size is in seconds)", p.Window))
	}
	if p.Burst != 0 && p.Burst != p.Limit {
		errs = append(errs, fmt.Errorf("burst %d: the window counters' burst is their limit %d", p.Burst, p.Limit))
	}
	if err := errors.Join(errs...); err != nil {
		return KongAdvancedParams{}, fmt.Errorf("kong rate-limiting-advanced: %w", err)
	}
	return KongAdvancedParams{Limit: p.Limit, WindowSize: int64(p.Window / time.Second)}, nil
}

// NewKongAdvanced returns the rule for x, or every problem with x.
func NewKongAdvanced(x KongAdvancedParams) (*KongAdvanced, error) {
	var errs []error
	if x.Limit <= 0 {
		errs = append(errs, fmt.Errorf("limit must be positive, got %d", x.Limit))
	}
	if x.WindowSize <= 0 || x.WindowSize > int64(maxKongWindow/time.Second) {
		errs = append(errs, fmt.Errorf("window_size must be a positive number of seconds, got %d", x.WindowSize))
	}
	k := &KongAdvanced{penalty: !x.DisablePenalty}
	switch x.WindowType {
	case "", KongSliding:
		k.sliding = true
	case KongFixed:
	default:
		errs = append(errs, fmt.Errorf("window_type %q: expected one of: fixed, sliding", x.WindowType))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("kong rate-limiting-advanced: %w", err)
	}
	p := Policy{Limit: x.Limit, Window: time.Duration(x.WindowSize) * time.Second}
	k.sw, k.fw = &SlidingWindowCounter{limit: p.Limit, window: p.Window}, &FixedWindow{limit: p.Limit, window: p.Window}
	if !x.Epoch.IsZero() {
		k.esec, k.ensec = x.Epoch.Unix(), time.Duration(x.Epoch.Nanosecond())
	}
	k.base = k.esec - ((k.esec%x.WindowSize)+x.WindowSize)%x.WindowSize
	return k, nil
}

// maxKongWindow keeps twice the window, in ns, far inside int64.
const maxKongWindow = 100 * 365 * 24 * time.Hour

// KongAdvancedState is one key's window counters: 40 bytes. The zero value is
// a never-seen key.
type KongAdvancedState struct {
	sw SlidingWindowCounterState
	fw FixedWindowState
}

// tau maps virtual now to the counters' clock: whole Unix seconds since base, in ns.
func (k *KongAdvanced) tau(now time.Duration) time.Duration {
	return time.Duration(k.esec-k.base+int64((k.ensec+now)/time.Second)) * time.Second
}

// untau is the wait from now to the first whole second at or after counter
// time t.
func (k *KongAdvanced) untau(t, now time.Duration) time.Duration {
	sec := int64((t + time.Second - 1) / time.Second)
	return time.Duration(sec+k.base-k.esec)*time.Second - k.ensec - now
}

// Decide answers a request of cost units (cost ≥ 1) at now.
func (k *KongAdvanced) Decide(s *KongAdvancedState, now time.Duration, cost int64) Decision {
	if cost < 1 {
		badCost("KongAdvanced.Decide", cost)
	}
	t := k.tau(now)
	var d Decision
	if k.sliding {
		d = decideCounted(k.sw, &s.sw, t, cost, k.penalty, false)
	} else {
		d = k.fw.Decide(&s.fw, t, cost)
		if d.Verdict == Refuse && k.penalty {
			k.fw.Charge(&s.fw, t, cost)
			d.Remaining = 0
		}
	}
	if d.Reset > 0 {
		d.Reset = k.untau(t+d.Reset, now)
	}
	d.RetryAfterExact = true
	if d.Verdict == Refuse && d.RetryAfter != Never {
		d.RetryAfter = k.untau(t+d.RetryAfter, now)
	}
	return d
}

// Idle reports whether s decides exactly as a never-seen key from now on.
func (k *KongAdvanced) Idle(s *KongAdvancedState, now time.Duration) bool {
	t := k.tau(now)
	if k.sliding {
		return k.sw.Idle(&s.sw, t)
	}
	return k.fw.Idle(&s.fw, t)
}

// Charge counts cost at now, whether it fits or not.
func (k *KongAdvanced) Charge(s *KongAdvancedState, now time.Duration, cost int64) {
	if cost < 1 {
		badCost("KongAdvanced.Charge", cost)
	}
	t := k.tau(now)
	if k.sliding {
		k.sw.Charge(&s.sw, t, cost)
	} else {
		k.fw.Charge(&s.fw, t, cost)
	}
}

var (
	_ Algorithm[KongAdvancedState] = (*KongAdvanced)(nil)
	_ Charging[KongAdvancedState]  = (*KongAdvanced)(nil)
)
