package algorithms

import (
	"math"
	"testing"
	"time"
)

// bound is one side of a bound a constructor states: make returns its error.
type bound struct {
	name string
	make func() error
	ok   bool
}

func checkBounds(t *testing.T, bounds []bound) {
	t.Helper()
	for _, b := range bounds {
		if err := b.make(); (err == nil) != b.ok {
			t.Errorf("%s: error %v, want ok %v", b.name, err, b.ok)
		}
	}
}

// NewEnvoyLocal at each bound of its fields, on both sides.
func TestEnvoyLocalBoundsEachSide(t *testing.T) {
	with := func(f func(*EnvoyLocalParams)) func() error {
		return func() error {
			x := EnvoyLocalParams{MaxTokens: 10, TokensPerFill: 5, FillInterval: 100 * time.Millisecond}
			f(&x)
			_, err := NewEnvoyLocal(x)
			return err
		}
	}
	checkBounds(t, []bound{
		{"max_tokens 1", with(func(x *EnvoyLocalParams) { x.MaxTokens = 1 }), true},
		{"max_tokens 0", with(func(x *EnvoyLocalParams) { x.MaxTokens = 0 }), false},
		{"max_tokens MaxUint32", with(func(x *EnvoyLocalParams) { x.MaxTokens = math.MaxUint32 }), true},
		{"max_tokens MaxUint32+1", with(func(x *EnvoyLocalParams) { x.MaxTokens = math.MaxUint32 + 1 }), false},
		{"tokens_per_fill 0 (1)", with(func(x *EnvoyLocalParams) { x.TokensPerFill = 0 }), true},
		{"tokens_per_fill -1", with(func(x *EnvoyLocalParams) { x.TokensPerFill = -1 }), false},
		{"tokens_per_fill MaxUint32", with(func(x *EnvoyLocalParams) { x.TokensPerFill = math.MaxUint32 }), true},
		{"tokens_per_fill MaxUint32+1", with(func(x *EnvoyLocalParams) { x.TokensPerFill = math.MaxUint32 + 1 }), false},
		{"fill_interval 50ms", with(func(x *EnvoyLocalParams) { x.FillInterval = 50 * time.Millisecond }), true},
		{"fill_interval 50.9ms (50ms)", with(func(x *EnvoyLocalParams) { x.FillInterval = 50*time.Millisecond + 900*time.Microsecond }), true},
		{"fill_interval 49.9ms (49ms)", with(func(x *EnvoyLocalParams) { x.FillInterval = 50*time.Millisecond - 100*time.Microsecond }), false},
		{"refill stepwise", with(func(x *EnvoyLocalParams) { x.Refill = EnvoyStepwise }), true},
		{"refill past stepwise", with(func(x *EnvoyLocalParams) { x.Refill = EnvoyStepwise + 1 }), false},
		{"start tokens 0", with(func(x *EnvoyLocalParams) { x.Start, x.StartTokens = EnvoyStartTokens, 0 }), true},
		{"start tokens max_tokens", with(func(x *EnvoyLocalParams) { x.Start, x.StartTokens = EnvoyStartTokens, 10 }), true},
		{"start tokens over max_tokens", with(func(x *EnvoyLocalParams) { x.Start, x.StartTokens = EnvoyStartTokens, 11 }), false},
		{"start tokens -1", with(func(x *EnvoyLocalParams) { x.Start, x.StartTokens = EnvoyStartTokens, -1 }), false},
		{"start unknown", with(func(x *EnvoyLocalParams) { x.Start = EnvoyStartTokens + 1 }), false},
		{"monotonic start 0", with(func(x *EnvoyLocalParams) { x.MonotonicStart = 0 }), true},
		{"monotonic start -1ns", with(func(x *EnvoyLocalParams) { x.MonotonicStart = -1 }), false},
	})
}

// EnvoyLocalParamsOf gives the policy's burst and rate with the finest fill
// its doc comment promises: the window in ms (scaled up by ⌈50ms/Window⌉ when
// under 50ms) divided by the largest common divisor of it and the limit that
// leaves at least 50ms; checked against every such fill finer than the one given.
func TestEnvoyLocalParamsOfIsTheFinestFill(t *testing.T) {
	for _, p := range []Policy{
		{Limit: 10, Window: time.Second}, {Limit: 7, Window: time.Second}, {Limit: 1, Window: time.Minute},
		{Limit: 30, Window: 2 * time.Second, Burst: 5}, {Limit: 3, Window: 10 * time.Millisecond},
		{Limit: 1000, Window: 60 * time.Millisecond}, {Limit: 12, Window: 90 * time.Millisecond},
		{Limit: 100, Window: 100 * time.Millisecond}, {Limit: 6, Window: 49 * time.Millisecond},
	} {
		x, err := EnvoyLocalParamsOf(p)
		if err != nil {
			t.Errorf("%+v: %v", p, err)
			continue
		}
		if x.MaxTokens != p.EffectiveBurst() || x.FillInterval%time.Millisecond != 0 || x.FillInterval < 50*time.Millisecond ||
			x.TokensPerFill*int64(p.Window) != p.Limit*int64(x.FillInterval) {
			t.Errorf("%+v: %+v, not the burst and the rate in a fill of whole ms of at least 50ms", p, x)
			continue
		}
		wms, limit := int64(p.Window/time.Millisecond), p.Limit
		if wms < 50 {
			k := (50 + wms - 1) / wms
			wms, limit = wms*k, limit*k
		}
		if wms%int64(x.FillInterval/time.Millisecond) != 0 {
			t.Errorf("%+v: fill %v does not divide the window of %dms", p, x.FillInterval, wms)
		}
		for g := wms / 50; g > wms/int64(x.FillInterval/time.Millisecond); g-- {
			if wms%g == 0 && limit%g == 0 {
				t.Errorf("%+v: fill %v, but %dms (%d tokens) is finer", p, x.FillInterval, wms/g, limit/g)
				break
			}
		}
	}
	for _, p := range []Policy{
		{Limit: 10, Window: 1500 * time.Microsecond},
		{Limit: 10, Window: time.Second, Burst: math.MaxUint32 + 1},
		{Limit: 0, Window: time.Second},
		{Limit: math.MaxUint32 + 1, Window: 50 * time.Millisecond},
	} {
		if x, err := EnvoyLocalParamsOf(p); err == nil {
			t.Errorf("%+v: %+v, want an error", p, x)
		}
	}
}

// AWS WAF's rule: a limit of 10 to 2^31-1, evaluation windows of 60, 120, 300
// or 600 seconds, no burst.
func TestAWSWAFBoundsEachSide(t *testing.T) {
	of := func(p Policy) func() error { return func() error { _, err := AWSWAFParamsOf(p); return err } }
	limit := func(n int64) func() error {
		return func() error { _, err := NewAWSWAF(AWSWAFParams{Limit: n, EvaluationWindowSec: 60}); return err }
	}
	bounds := []bound{
		{"limit 10", of(Policy{Limit: 10, Window: time.Minute}), true},
		{"limit 9", of(Policy{Limit: 9, Window: time.Minute}), false},
		{"burst the limit", of(Policy{Limit: 100, Window: time.Minute, Burst: 100}), true},
		{"burst 5", of(Policy{Limit: 100, Window: time.Minute, Burst: 5}), false},
		{"window 90s", of(Policy{Limit: 100, Window: 90 * time.Second}), false},
		{"no window", of(Policy{Limit: 100}), false},
		{"new limit 10", limit(10), true},
		{"new limit 9", limit(9), false},
		{"new limit 2^31-1", limit(1<<31 - 1), true},
		{"new limit 2^31", limit(1 << 31), false},
	}
	for _, w := range []time.Duration{time.Minute, 2 * time.Minute, 5 * time.Minute, 10 * time.Minute} {
		p := Policy{Limit: 100, Window: w}
		bounds = append(bounds, bound{"window " + w.String(), of(p), true})
		if x, err := AWSWAFParamsOf(p); err != nil || x.Limit != 100 || x.EvaluationWindowSec != int64(w/time.Second) {
			t.Errorf("AWSWAFParamsOf(%+v) = %+v, %v", p, x, err)
		}
	}
	checkBounds(t, bounds)
}

// API Gateway's throttle: a rate of whole thousandths per second, positive and
// finite, at most 10^12 a second; a burst of at least 1. ParamsOf gives the
// policy's rate and effective burst.
func TestAWSThrottleBoundsEachSide(t *testing.T) {
	throttle := func(rate float64, burst int64) func() error {
		return func() error {
			_, err := NewAWSThrottle(AWSThrottleParams{RateLimit: rate, BurstLimit: burst})
			return err
		}
	}
	checkBounds(t, []bound{
		{"rate 0.001", throttle(0.001, 1), true},
		{"rate 0.0015", throttle(0.0015, 1), false},
		{"rate 0", throttle(0, 1), false},
		{"rate -1", throttle(-1, 1), false},
		{"rate +Inf", throttle(math.Inf(1), 1), false},
		{"rate NaN", throttle(math.NaN(), 1), false},
		{"rate 1e12", throttle(1e12, 1), true},
		{"rate 1e12+1", throttle(1e12+1, 1), false},
		{"burst 0", throttle(5, 0), false},
		{"of a policy too fast", func() error { _, err := AWSThrottleParamsOf(Policy{Limit: 1 << 62, Window: 1}); return err }, false},
		{"of no policy", func() error { _, err := AWSThrottleParamsOf(Policy{}); return err }, false},
		{"of a third a second", func() error { _, err := AWSThrottleParamsOf(Policy{Limit: 1, Window: 3 * time.Second}); return err }, false},
	})
	for _, p := range []Policy{{Limit: 30, Window: 3 * time.Second, Burst: 4}, {Limit: 1, Window: 8 * time.Second}, {Limit: 7, Window: time.Second}} {
		x, err := AWSThrottleParamsOf(p)
		if err != nil || x.RateLimit != float64(p.Limit)/p.Window.Seconds() || x.BurstLimit != p.EffectiveBurst() {
			t.Errorf("AWSThrottleParamsOf(%+v) = %+v, %v; want %v a second, burst %d", p, x, err, float64(p.Limit)/p.Window.Seconds(), p.EffectiveBurst())
		}
	}
}

// A usage plan quota: a limit of 0 or more, an offset below it, a known
// period and an epoch.
func TestAWSQuotaBoundsEachSide(t *testing.T) {
	epoch := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	quota := func(limit, offset int64, period AWSQuotaPeriod, epoch time.Time) func() error {
		return func() error {
			_, err := NewAWSQuota(AWSQuotaParams{Limit: limit, Offset: offset, Period: period, Epoch: epoch})
			return err
		}
	}
	checkBounds(t, []bound{
		{"offset limit-1", quota(10, 9, AWSQuotaDay, epoch), true},
		{"offset the limit", quota(10, 10, AWSQuotaDay, epoch), false},
		{"offset -1", quota(10, -1, AWSQuotaDay, epoch), false},
		{"limit -1", quota(-1, -2, AWSQuotaDay, epoch), false},
		{"week", quota(10, 0, AWSQuotaWeek, epoch), true},
		{"month", quota(10, 0, AWSQuotaMonth, epoch), true},
		{"period day in lower case", quota(10, 0, "day", epoch), false},
		{"no epoch", quota(10, 0, AWSQuotaDay, time.Time{}), false},
	})
}
