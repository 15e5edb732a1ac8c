package algorithms

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func TestVegasSteps(t *testing.T) {
	v := must(NewVegas(VegasConfig{Initial: 20, Max: 100}))
	for i := range 20 {
		if !v.Acquire(0) {
			t.Fatalf("Acquire(0) #%d = false, want true below the limit of 20", i+1)
		}
	}
	if v.Acquire(0) {
		t.Fatal("Acquire(0) #21 = true, want false at the limit of 20")
	}
	steps := []struct {
		latency time.Duration
		want    float64
		why     string
	}{
		{10 * ms, 20, "the first sample only sets the no-load latency"},
		{10 * ms, 26, "no queue (queue 0 ≤ 1): limit += 6×log10"},
		{20 * ms, 25, "queue ⌈26×(1−10/20)⌉ = 13 > 6: limit −= 1"},
		{5 * ms, 25, "a faster sample is a new no-load latency, no change"},
		{6 * ms, 25, "queue ⌈25×(1−5/6)⌉ = 5, in the sweet spot [3, 6]"},
		{5 * ms, 31, "no queue again: limit += 6"},
	}
	for i, s := range steps {
		now := time.Duration(i+1) * ms
		v.Release(now, s.latency)
		if got := v.Limit(); got != s.want {
			t.Fatalf("step %d: Release(%v, %v); Limit() = %v, want %v (%s)", i, now, s.latency, got, s.want, s.why)
		}
	}
}

func TestVegasHoldsStillWhenUnderused(t *testing.T) {
	v := must(NewVegas(VegasConfig{Initial: 20}))
	v.Acquire(0)
	v.Release(ms, 10*ms)
	for i := range 5 {
		v.Acquire(0)
		v.Release(ms, 10*ms)
		if v.Limit() != 20 {
			t.Fatalf("release %d with 1 of 20 in flight: Limit() = %v, want 20 (no upward drift)", i, v.Limit())
		}
	}
}

func TestVegasReleaseWithoutAcquirePanics(t *testing.T) {
	v := must(NewVegas(VegasConfig{}))
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "Vegas.Release") {
			t.Errorf("Release without Acquire panicked with %q, want a message naming Vegas.Release", r)
		}
	}()
	v.Release(0, ms)
}

func TestNewVegasReportsEveryError(t *testing.T) {
	_, err := NewVegas(VegasConfig{Initial: 0.5, Max: -1, Smoothing: 2, ProbeMultiplier: -3})
	if err == nil {
		t.Fatal("NewVegas(bad config) = nil error")
	}
	for _, want := range []string{"initial", "max", "smoothing", "probe_multiplier"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("NewVegas error %q does not mention %s", err, want)
		}
	}
}

func TestLog10Root(t *testing.T) {
	for _, c := range []struct{ n, want int }{{0, 1}, {1, 1}, {9, 1}, {10, 1}, {99, 1}, {100, 2}, {999, 2}, {1000, 3}, {10000, 4}} {
		if got := log10Root(c.n); got != c.want {
			t.Errorf("log10Root(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

// checkVegas drives random acquires and releases with arbitrary latencies: the
// limit stays in [1, max] and an admitted request never leaves more than
// ⌊limit⌋ in flight.
func checkVegas(t *testing.T, seed uint64, initial, span, smoothing float64, probe int) {
	cfg := VegasConfig{Initial: 1 + math.Mod(math.Abs(initial), 200), Smoothing: math.Mod(math.Abs(smoothing), 1),
		ProbeMultiplier: 1 + probe%50, Seed: seed}
	if probe < 0 {
		cfg.ProbeMultiplier = 1 - probe%50
	}
	cfg.Max = cfg.Initial + math.Mod(math.Abs(span), 1000)
	v, err := NewVegas(cfg)
	if err != nil {
		t.Skip(err) // NaN and friends
	}
	r := rand.New(rand.NewPCG(seed, 1))
	for i := range 3000 {
		now := time.Duration(i) * ms
		if v.InFlight() > 0 && r.IntN(2) == 0 {
			v.Release(now, time.Duration(r.Int64N(int64(time.Second))))
		} else if v.Acquire(now) && v.InFlight() > int(v.Limit()) {
			t.Fatalf("%+v op %d: %d in flight after Acquire, limit %v", cfg, i, v.InFlight(), v.Limit())
		}
		if l := v.Limit(); l < 1 || l > cfg.Max {
			t.Fatalf("%+v op %d: Limit() = %v, outside [1, %v]", cfg, i, l, cfg.Max)
		}
	}
}

func TestVegasProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	for range 300 {
		checkVegas(t, r.Uint64(), r.Float64()*200, r.Float64()*1000, r.Float64(), r.IntN(50))
	}
}

func FuzzVegas(f *testing.F) {
	f.Add(uint64(1), 20.0, 980.0, 1.0, 30)
	f.Add(uint64(2), 1.0, 0.0, 0.2, 1)
	f.Fuzz(func(t *testing.T, seed uint64, initial, span, smoothing float64, probe int) {
		checkVegas(t, seed, initial, span, smoothing, probe)
	})
}
