package algorithms

import (
	"math"
	"testing"
	"time"
)

// VegasConfig: 1 ≤ Initial ≤ Max < 2^31, Smoothing in (0, 1], ProbeMultiplier ≥ 1;
// each edge accepted, one step past it refused.
func TestAuditVegasConfigEdges(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  VegasConfig
		ok   bool
	}{
		{"initial 1", VegasConfig{Initial: 1, Max: 10}, true},
		{"initial under 1", VegasConfig{Initial: 0.999, Max: 10}, false},
		{"initial = max", VegasConfig{Initial: 10, Max: 10}, true},
		{"initial past max", VegasConfig{Initial: 10.001, Max: 10}, false},
		{"max 1", VegasConfig{Initial: 1, Max: 1}, true},
		{"max 2^31-1", VegasConfig{Initial: 1, Max: math.MaxInt32}, true},
		{"max 2^31", VegasConfig{Initial: 1, Max: math.MaxInt32 + 1}, false},
		{"smoothing 1", VegasConfig{Smoothing: 1}, true},
		{"smoothing just over 1", VegasConfig{Smoothing: 1.0001}, false},
		{"smoothing tiny", VegasConfig{Smoothing: 1e-9}, true},
		{"smoothing negative", VegasConfig{Smoothing: -0.1}, false},
		{"probe 1", VegasConfig{ProbeMultiplier: 1}, true},
		{"probe negative", VegasConfig{ProbeMultiplier: -1}, false},
	} {
		if _, err := NewVegas(tc.cfg); (err == nil) != tc.ok {
			t.Errorf("%s: NewVegas(%+v) error %v, want accepted %v", tc.name, tc.cfg, err, tc.ok)
		}
	}
}

// The zero VegasConfig takes the documented defaults.
func TestAuditVegasDefaults(t *testing.T) {
	got := VegasConfig{}.WithDefaults()
	if got.Initial != 20 || got.Max != 1000 || got.Smoothing != 1 || got.ProbeMultiplier != 30 {
		t.Errorf("VegasConfig{}.WithDefaults() = %+v, want initial 20, max 1000, smoothing 1, probe 30", got)
	}
	v, err := NewVegas(VegasConfig{})
	if err != nil || v.Limit() != 20 {
		t.Errorf("NewVegas(zero) = limit %v, %v; want 20", v.Limit(), err)
	}
}

// AIMDConfig: 1 ≤ Min ≤ Initial ≤ Max < 2^31 and a positive Target; each edge
// accepted, one step past it refused; Backoff 0 means 0.9.
func TestAuditAIMDConfigEdges(t *testing.T) {
	base := AIMDConfig{Initial: 5, Min: 2, Max: 10, Target: time.Millisecond}
	for _, tc := range []struct {
		name string
		mod  func(*AIMDConfig)
		ok   bool
	}{
		{"as given", func(*AIMDConfig) {}, true},
		{"min 1", func(c *AIMDConfig) { c.Min = 1 }, true},
		{"min under 1", func(c *AIMDConfig) { c.Min, c.Initial = 0.999, 1 }, false},
		{"initial = min", func(c *AIMDConfig) { c.Initial = 2 }, true},
		{"initial under min", func(c *AIMDConfig) { c.Initial = 1.999 }, false},
		{"initial = max", func(c *AIMDConfig) { c.Initial = 10 }, true},
		{"initial past max", func(c *AIMDConfig) { c.Initial = 10.001 }, false},
		{"max = min", func(c *AIMDConfig) { c.Max, c.Initial = 2, 2 }, true},
		{"max under min", func(c *AIMDConfig) { c.Max, c.Initial = 1.999, 2 }, false},
		{"max 2^31-1", func(c *AIMDConfig) { c.Max = math.MaxInt32 }, true},
		{"max 2^31", func(c *AIMDConfig) { c.Max = math.MaxInt32 + 1 }, false},
		{"target 1ns", func(c *AIMDConfig) { c.Target = 1 }, true},
		{"target 0", func(c *AIMDConfig) { c.Target = 0 }, false},
	} {
		cfg := base
		tc.mod(&cfg)
		if _, err := NewAIMD(cfg); (err == nil) != tc.ok {
			t.Errorf("%s: NewAIMD(%+v) error %v, want accepted %v", tc.name, cfg, err, tc.ok)
		}
	}
	// Backoff 0 is 0.9: one slow completion cuts a limit of 10 to 9.
	a, err := NewAIMD(AIMDConfig{Initial: 10, Min: 1, Max: 10, Target: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !a.Acquire(0) {
		t.Fatal("Acquire(0) refused under a limit of 10")
	}
	a.Release(0, 2*time.Millisecond)
	if got := a.Limit(); math.Abs(got-9) > 1e-9 {
		t.Errorf("limit after one slow completion = %v, want 10 × 0.9 = 9", got)
	}
}

// ThrottleConfig: K ≥ 1 and finite, Period and Buckets positive; K exactly 1 accepted.
func TestAuditThrottleConfigEdges(t *testing.T) {
	for _, tc := range []struct {
		name string
		cfg  ThrottleConfig
		ok   bool
	}{
		{"k 1", ThrottleConfig{K: 1}, true},
		{"k under 1", ThrottleConfig{K: 0.999}, false},
		{"k infinite", ThrottleConfig{K: math.Inf(1)}, false},
		{"k NaN", ThrottleConfig{K: math.NaN()}, false},
		{"one bucket", ThrottleConfig{Period: time.Second, Buckets: 1}, true},
		{"negative buckets", ThrottleConfig{Period: time.Second, Buckets: -1}, false},
		{"period 1ns, one bucket", ThrottleConfig{Period: 1, Buckets: 1}, true},
		{"negative period", ThrottleConfig{Period: -1, Buckets: 1}, false},
		{"period one ns short of whole buckets", ThrottleConfig{Period: 24*time.Second - 1}, false},
	} {
		if _, err := NewThrottle(tc.cfg); (err == nil) != tc.ok {
			t.Errorf("%s: NewThrottle(%+v) error %v, want accepted %v", tc.name, tc.cfg, err, tc.ok)
		}
	}
}

// With K = 1 a client whose every request was accepted never drops: p =
// max(0, (n − n)/(n + 1)) = 0.
func TestAuditThrottleKOneAllAccepted(t *testing.T) {
	th := must(NewThrottle(ThrottleConfig{K: 1}))
	var s ThrottleState
	for i := range 5 {
		th.Answered(&s, time.Duration(i)*time.Millisecond, true)
	}
	if p := th.DropProbability(&s, 5*time.Millisecond); p != 0 {
		t.Errorf("DropProbability after 5 accepts with K=1 = %v, want 0", p)
	}
	th.Answered(&s, 5*time.Millisecond, false)
	if p, want := th.DropProbability(&s, 5*time.Millisecond), 1.0/7; math.Abs(p-want) > 1e-12 {
		t.Errorf("DropProbability after 5 accepts and a refusal with K=1 = %v, want (6−5)/7", p)
	}
}
