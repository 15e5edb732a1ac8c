package algorithms

import (
	"math"
	"testing"
	"time"
)

// The smallest valid policy (limit 1 per nanosecond, burst 0: the limit) is
// taken by all six constructors, and a sliding log's limit of exactly 2^30
// is taken (NewSlidingLog rejects only above it).
func TestSmallestPolicyAndLogLimitEdge(t *testing.T) {
	tiny := Policy{Limit: 1, Window: 1}
	for name, build := range map[string]func(Policy) error{
		"fixed window":           func(p Policy) error { _, err := NewFixedWindow(p); return err },
		"sliding log":            func(p Policy) error { _, err := NewSlidingLog(p); return err },
		"sliding window counter": func(p Policy) error { _, err := NewSlidingWindowCounter(p); return err },
		"token bucket":           func(p Policy) error { _, err := NewTokenBucket(p); return err },
		"gcra":                   func(p Policy) error { _, err := NewGCRA(p); return err },
		"leaky bucket":           func(p Policy) error { _, err := NewLeakyBucket(p); return err },
	} {
		if err := build(tiny); err != nil {
			t.Errorf("%s: New(%+v) = %v, want it taken", name, tiny, err)
		}
	}
	if _, err := NewSlidingLog(Policy{Limit: maxLogLimit, Window: time.Second}); err != nil {
		t.Errorf("NewSlidingLog(limit 2^30) = %v, want it taken", err)
	}
	if p := (Policy{Limit: 7, Window: 1, Burst: 1}); p.EffectiveBurst() != 1 {
		t.Errorf("burst 1 of limit 7: EffectiveBurst %d, want 1", p.EffectiveBurst())
	}
	if p := tiny; p.EffectiveBurst() != 1 || p.Validate() != nil {
		t.Errorf("burst 0: EffectiveBurst %d, Validate %v; want the limit and valid", p.EffectiveBurst(), p.Validate())
	}
}

// checkScale takes (n+extra)×span + units up to MaxInt64 and refuses one
// more; a token bucket at 1 per ns holds a burst of MaxInt64−2 ((b+1)×1 + 1 =
// MaxInt64), not MaxInt64−1.
func TestCheckScaleAtMaxInt64(t *testing.T) {
	p := newPace(1, 1)
	if err := p.checkScale("burst", math.MaxInt64-2, 1); err != nil {
		t.Errorf("checkScale(MaxInt64-2, 1) at 1/ns = %v, want nil", err)
	}
	if err := p.checkScale("burst", math.MaxInt64-1, 1); err == nil {
		t.Error("checkScale(MaxInt64-1, 1) at 1/ns = nil, want an overflow")
	}
	if _, err := NewTokenBucket(Policy{Limit: 1, Window: 1, Burst: math.MaxInt64 - 2}); err != nil {
		t.Errorf("token bucket 1/ns burst MaxInt64-2: %v, want taken", err)
	}
	if _, err := NewTokenBucket(Policy{Limit: 1, Window: 1, Burst: math.MaxInt64 - 1}); err == nil {
		t.Error("token bucket 1/ns burst MaxInt64-1: taken, want an overflow")
	}
	// The product itself past 2^64 (hi ≠ 0).
	if err := newPace(1, time.Second).checkScale("burst", 1<<40, 0); err == nil {
		t.Error("checkScale(2^40 × 1e9) = nil, want an overflow")
	}
}
