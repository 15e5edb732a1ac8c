package algorithms

import (
	"math"
	"testing"
	"time"
)

func TestPromiseAIMDConfigEdges(t *testing.T) {
	ok := AIMDConfig{Initial: 2, Min: 1, Max: 4, Target: 10}
	for _, tc := range []struct {
		name string
		edit func(*AIMDConfig)
		want string // "" when valid
	}{
		{"valid", func(*AIMDConfig) {}, ""},
		{"initial = min", func(c *AIMDConfig) { c.Initial = 1 }, ""},
		{"initial = max", func(c *AIMDConfig) { c.Initial = 4 }, ""},
		{"max = 2^31-1", func(c *AIMDConfig) { c.Max = math.MaxInt32 }, ""},
		{"max = 2^31", func(c *AIMDConfig) { c.Max = math.MaxInt32 + 1 }, "aimd: max must be within [min, 2^31-1] = [1, 2147483647], got 2.147483648e+09"},
		{"min under 1", func(c *AIMDConfig) { c.Min, c.Initial = 0.5, 1 }, "aimd: min must be at least 1, got 0.5"},
		{"initial over max", func(c *AIMDConfig) { c.Initial = 4.5 }, "aimd: initial must be within [min, max] = [1, 4], got 4.5"},
		{"target 0", func(c *AIMDConfig) { c.Target = 0 }, "aimd: target must be positive, got 0s"},
		{"backoff 1", func(c *AIMDConfig) { c.Backoff = 1 }, "aimd: backoff must be within (0, 1), got 1"},
	} {
		c := ok
		tc.edit(&c)
		_, err := NewAIMD(c)
		if (err == nil) != (tc.want == "") || (err != nil && err.Error() != tc.want) {
			t.Errorf("%s: NewAIMD = %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestPromiseAIMDAdapts(t *testing.T) {
	a, err := NewAIMD(AIMDConfig{Initial: 2.9, Min: 1.5, Max: 3, Target: 10, Backoff: 0.5})
	if err != nil {
		t.Fatal(err)
	}
	// ⌊2.9⌋ = 2 may be in flight.
	if !a.Acquire(0) || !a.Acquire(0) || a.Acquire(0) || a.InFlight() != 2 {
		t.Fatalf("Acquire ×3 with limit 2.9: want true true false, in flight 2 (got %d)", a.InFlight())
	}
	a.Release(0, 10) // latency == Target is fast: 2.9 + 1/2.9 > 3, clamped to Max
	if a.Limit() != 3 {
		t.Errorf("limit after a fast completion = %v, want 3 (Max)", a.Limit())
	}
	a.Release(0, 11) // first slow completion cuts at once: 1.5
	if a.Limit() != 1.5 || a.InFlight() != 0 {
		t.Errorf("limit after the first slow = %v, in flight %d, want 1.5, 0", a.Limit(), a.InFlight())
	}

	b, _ := NewAIMD(AIMDConfig{Initial: 4, Min: 1, Max: 100, Target: 10}) // Backoff 0 means 0.9
	for range 4 {
		b.Acquire(0)
	}
	b.Release(0, 11) // cut: 3.6, sinceCut 0
	if math.Abs(b.Limit()-3.6) > 1e-12 {
		t.Fatalf("limit = %v, want 3.6 (default backoff 0.9)", b.Limit())
	}
	b.Release(0, 5) // fast: 3.6 + 1/3.6, sinceCut 1
	want := 3.6 + 1/3.6
	if math.Abs(b.Limit()-want) > 1e-12 {
		t.Fatalf("limit = %v, want %v", b.Limit(), want)
	}
	b.Release(0, 11) // sinceCut 2 < ⌊3.877⌋ = 3: no cut
	if math.Abs(b.Limit()-want) > 1e-12 {
		t.Errorf("limit after slow with sinceCut 2 < 3 = %v, want unchanged %v", b.Limit(), want)
	}
	b.Release(0, 11) // sinceCut 3 ≥ 3: cut
	if math.Abs(b.Limit()-want*0.9) > 1e-12 {
		t.Errorf("limit after slow with sinceCut 3 = %v, want %v", b.Limit(), want*0.9)
	}
	defer func() {
		if r := recover(); r != "algorithms: AIMD.Release without a matching Acquire" {
			t.Errorf("panic = %v", r)
		}
	}()
	b.Release(0, 1)
}

func TestPromiseThrottleDrop(t *testing.T) {
	th, err := NewThrottle(ThrottleConfig{K: 2, Period: 100, Buckets: 4}) // buckets of 25ns
	if err != nil {
		t.Fatal(err)
	}
	var s ThrottleState
	if p := th.DropProbability(&s, 0); p != 0 {
		t.Errorf("zero state: p = %v, want 0", p)
	}
	for range 3 {
		th.Answered(&s, 0, false)
	}
	if p := th.DropProbability(&s, 0); p != 0.75 {
		t.Errorf("3 refused: p = %v, want 3/4", p)
	}
	if ok, p := th.Decide(&s, 10, 0.75); !ok || p != 0.75 {
		t.Errorf("Decide(u = p) = %v, %v, want allowed (drops only when u < p)", ok, p)
	}
	if th.Allow(&s, 10, 0.7499) {
		t.Error("Allow(u just under p) = true, want dropped")
	}
	if p := th.DropProbability(&s, 24); p != 0.8 { // the drop counted: 4 requests
		t.Errorf("after a drop: p = %v, want 4/5", p)
	}
	th.Answered(&s, 24, true) // 5 requests, 1 accept: (5−2)/6
	if p := th.DropProbability(&s, 99); p != 0.5 {
		t.Errorf("at 99 (bucket 3, bucket 0 still counted): p = %v, want 0.5", p)
	}
	if p := th.DropProbability(&s, 100); p != 0 {
		t.Errorf("at 100 (bucket 0 aged out): p = %v, want 0", p)
	}
	th.Answered(&s, 100, false)
	th.Answered(&s, 10, false) // earlier than the newest bucket: counted in bucket 4
	if p := th.DropProbability(&s, 100); p != 2.0/3 {
		t.Errorf("2 refused in bucket 4: p = %v, want 2/3", p)
	}
	if p := th.DropProbability(&s, 199); p != 2.0/3 {
		t.Errorf("at 199: p = %v, want 2/3", p)
	}
	if p := th.DropProbability(&s, 200); p != 0 {
		t.Errorf("at 200: p = %v, want 0", p)
	}
	// K×accepts above requests: p is 0, not negative.
	var t2 ThrottleState
	th.Answered(&t2, 0, true)
	if p := th.DropProbability(&t2, 0); p != 0 {
		t.Errorf("one accept: p = %v, want 0", p)
	}
}

func TestPromiseThrottleConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg  ThrottleConfig
		want string
	}{
		{ThrottleConfig{K: 1}, ""},
		{ThrottleConfig{K: 0.5}, "throttle: k must be finite and at least 1, got 0.5"},
		{ThrottleConfig{K: math.Inf(1)}, "throttle: k must be finite and at least 1, got +Inf"},
		{ThrottleConfig{Period: 100, Buckets: 3}, "throttle: period 100ns must split into 3 whole-nanosecond buckets"},
		{ThrottleConfig{Period: -1}, "throttle: period must be positive, got -1ns"},
		{ThrottleConfig{Buckets: -2}, "throttle: buckets must be positive, got -2"},
	} {
		_, err := NewThrottle(tc.cfg)
		if (err == nil) != (tc.want == "") || (err != nil && err.Error() != tc.want) {
			t.Errorf("NewThrottle(%+v) = %v, want %q", tc.cfg, err, tc.want)
		}
	}
	// Defaults: K 2, 2 minutes in 24 buckets of 5s.
	th, _ := NewThrottle(ThrottleConfig{})
	var s ThrottleState
	th.Answered(&s, 4*time.Second, false)
	th.Answered(&s, 4*time.Second, false)
	th.Answered(&s, 4*time.Second, true) // (3 − 2)/4
	if p := th.DropProbability(&s, 2*time.Minute-1); p != 0.25 {
		t.Errorf("defaults, at 2m−1ns: p = %v, want 0.25", p)
	}
	if p := th.DropProbability(&s, 2*time.Minute); p != 0 {
		t.Errorf("defaults, at 2m: p = %v, want 0", p)
	}
}

func promiseVegas(t *testing.T, cfg VegasConfig, limit float64, noLoad time.Duration, inFlight int) *Vegas {
	t.Helper()
	cfg.ProbeMultiplier = 1 << 20 // no probe in these tests
	v, err := NewVegas(cfg)
	if err != nil {
		t.Fatal(err)
	}
	v.limit, v.noLoad, v.inFlight = limit, noLoad, inFlight
	return v
}

// queue = ⌈limit×(1 − noLoad/rtt)⌉ with limit 20 (d = 1), noLoad 100ns.
func TestPromiseVegasBands(t *testing.T) {
	for _, tc := range []struct {
		rtt  time.Duration
		want float64
	}{
		{100, 26}, // queue 0 ≤ d
		{105, 26}, // queue ⌈0.95⌉ = 1 ≤ d
		{110, 21}, // queue ⌈1.82⌉ = 2 < 3d
		{112, 20}, // queue ⌈2.14⌉ = 3: not < 3d
		{140, 20}, // queue ⌈5.71⌉ = 6: not > 6d
		{145, 19}, // queue ⌈6.21⌉ = 7 > 6d
	} {
		v := promiseVegas(t, VegasConfig{Initial: 20, Max: 1000}, 20, 100, 10) // 10×2 = 20: not under half
		v.Release(0, tc.rtt)
		if v.Limit() != tc.want || v.InFlight() != 9 {
			t.Errorf("rtt %v: limit %v, in flight %d, want %v, 9", tc.rtt, v.Limit(), v.InFlight(), tc.want)
		}
	}
	// d = ⌊log10 ⌊limit⌋⌋: 2 at 100, so queue 0 adds 12.
	v := promiseVegas(t, VegasConfig{Initial: 20, Max: 1000}, 100, 100, 50)
	v.Release(0, 100)
	if v.Limit() != 112 {
		t.Errorf("limit 100, no queue: %v, want 112", v.Limit())
	}
	v = promiseVegas(t, VegasConfig{Initial: 20, Max: 1000}, 99.5, 100, 50)
	v.Release(0, 100)
	if v.Limit() != 105.5 {
		t.Errorf("limit 99.5, no queue: %v, want 105.5 (d = 1)", v.Limit())
	}
	// Under half in flight (read before the release): no move.
	v = promiseVegas(t, VegasConfig{Initial: 20, Max: 1000}, 21, 100, 10)
	v.Release(0, 100)
	if v.Limit() != 21 {
		t.Errorf("10 of 21 in flight: limit %v, want 21", v.Limit())
	}
	// Smoothing blends, Max clamps.
	v = promiseVegas(t, VegasConfig{Initial: 20, Max: 1000, Smoothing: 0.5}, 20, 100, 10)
	v.Release(0, 100)
	if v.Limit() != 23 {
		t.Errorf("smoothing 0.5: limit %v, want 23", v.Limit())
	}
	v = promiseVegas(t, VegasConfig{Initial: 20, Max: 22}, 20, 100, 10)
	v.Release(0, 100)
	if v.Limit() != 22 {
		t.Errorf("max 22: limit %v, want 22", v.Limit())
	}
	// A faster sample is the new no-load latency; no latency changes nothing.
	v = promiseVegas(t, VegasConfig{Initial: 20, Max: 1000}, 20, 100, 10)
	v.Release(0, 99)
	v.Release(0, 0)
	if v.Limit() != 20 || v.noLoad != 99 || v.InFlight() != 8 || v.probeCount != 1 {
		t.Errorf("faster sample then none: limit %v noLoad %v inFlight %d probes %d, want 20 99 8 1", v.Limit(), v.noLoad, v.InFlight(), v.probeCount)
	}
}

func TestPromiseVegasProbe(t *testing.T) {
	v := promiseVegas(t, VegasConfig{Initial: 20, Max: 1000}, 20, 100, 10)
	v.cfg.ProbeMultiplier, v.jitter, v.probeCount = 2, 0.5, 18 // probe when 0.5×2×20 = 20 ≤ count
	v.Release(0, 150)                                          // count 19: an update (queue 7: −1)
	if v.Limit() != 19 || v.noLoad != 100 {
		t.Fatalf("count 19: limit %v noLoad %v, want 19 100", v.Limit(), v.noLoad)
	}
	v.jitter = 0.5 // 0.5×2×19 = 19 ≤ 20
	v.Release(0, 150)
	if v.noLoad != 150 || v.probeCount != 0 || v.Limit() != 19 || v.jitter < 0.5 || v.jitter >= 1 {
		t.Errorf("probe: noLoad %v count %d limit %v jitter %v, want 150 0 19 in [0.5,1)", v.noLoad, v.probeCount, v.Limit(), v.jitter)
	}
}

func TestPromiseVegasConfig(t *testing.T) {
	d := VegasConfig{}.WithDefaults()
	if d.Initial != 20 || d.Max != 1000 || d.Smoothing != 1 || d.ProbeMultiplier != 30 {
		t.Errorf("WithDefaults = %+v, want 20 1000 1 30", d)
	}
	for _, tc := range []struct {
		cfg  VegasConfig
		want string
	}{
		{VegasConfig{Initial: 1, Max: 1}, ""},
		{VegasConfig{Max: math.MaxInt32}, ""},
		{VegasConfig{Max: math.MaxInt32 + 1}, "vegas: max must be within [1, 2^31-1], got 2.147483648e+09"},
		{VegasConfig{Initial: 1001}, "vegas: initial must be within [1, max] = [1, 1000], got 1001"},
		{VegasConfig{Smoothing: 1.5}, "vegas: smoothing must be within (0, 1], got 1.5"},
		{VegasConfig{ProbeMultiplier: -1}, "vegas: probe_multiplier must be at least 1, got -1"},
	} {
		_, err := NewVegas(tc.cfg)
		if (err == nil) != (tc.want == "") || (err != nil && err.Error() != tc.want) {
			t.Errorf("NewVegas(%+v) = %v, want %q", tc.cfg, err, tc.want)
		}
	}
	v, _ := NewVegas(VegasConfig{Initial: 2.5})
	if !v.Acquire(0) || !v.Acquire(0) || v.Acquire(0) {
		t.Error("Acquire ×3 with limit 2.5: want true true false")
	}
	for _, c := range []struct{ n, d int }{{1, 1}, {9, 1}, {99, 1}, {100, 2}, {999, 2}, {1000, 3}} {
		if got := log10Root(c.n); got != c.d {
			t.Errorf("log10Root(%d) = %d, want %d", c.n, got, c.d)
		}
	}
}
