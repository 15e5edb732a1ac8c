package algorithms

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

func TestAIMDSteps(t *testing.T) {
	a := must(NewAIMD(AIMDConfig{Initial: 4, Min: 2, Max: 5, Target: 100 * ms}))
	type op struct {
		release   bool
		latency   time.Duration
		wantOK    bool    // Acquire's answer
		wantLimit float64 // after the operation
	}
	acquire := func(ok bool, limit float64) op { return op{wantOK: ok, wantLimit: limit} }
	release := func(latency time.Duration, limit float64) op {
		return op{release: true, latency: latency, wantLimit: limit}
	}
	ops := []op{
		acquire(true, 4), acquire(true, 4), acquire(true, 4), acquire(true, 4),
		acquire(false, 4),        // 4 in flight, ⌊4⌋ allowed
		release(50*ms, 4.25),     // fast: +1/4
		acquire(true, 4.25),      // 4 in flight again
		release(200*ms, 3.825),   // slow: ×0.9 at once
		release(200*ms, 3.825),   // slow, but only 1 completion since the cut
		release(200*ms, 3.825),   // 2
		release(200*ms, 3.4425),  // 3 = ⌊3.825⌋: cut again
		acquire(true, 3.4425),    // 1 in flight
		acquire(true, 3.4425),    // 2
		acquire(true, 3.4425),    // 3
		acquire(false, 3.4425),   // ⌊3.4425⌋ = 3
		release(200*ms, 3.4425),  // 1 since the cut
		release(200*ms, 3.4425),  // 2
		release(200*ms, 3.09825), // 3: cut
	}
	var now time.Duration
	for i, o := range ops {
		now += ms
		if o.release {
			a.Release(now, o.latency)
		} else if got := a.Acquire(now); got != o.wantOK {
			t.Fatalf("op %d: Acquire(t0+%v) = %v, want %v", i, now, got, o.wantOK)
		}
		if got := a.Limit(); math.Abs(got-o.wantLimit) > 1e-9 {
			t.Fatalf("op %d at t0+%v: Limit() = %v, want %v", i, now, got, o.wantLimit)
		}
	}
}

func TestAIMDBounds(t *testing.T) {
	a := must(NewAIMD(AIMDConfig{Initial: 2, Min: 2, Max: 3, Target: time.Second}))
	for range 100 {
		a.Acquire(0)
		a.Release(0, 0)
	}
	if got := a.Limit(); got != 3 {
		t.Errorf("after 100 fast completions Limit() = %v, want max 3", got)
	}
	for range 100 {
		a.Acquire(0)
		a.Release(0, time.Hour)
	}
	if got := a.Limit(); got != 2 {
		t.Errorf("after 100 slow completions Limit() = %v, want min 2", got)
	}
}

func TestAIMDReleaseWithoutAcquirePanics(t *testing.T) {
	a := must(NewAIMD(AIMDConfig{Initial: 1, Min: 1, Max: 1, Target: time.Second}))
	defer func() {
		if r, _ := recover().(string); !strings.Contains(r, "AIMD.Release") {
			t.Errorf("Release without Acquire panicked with %q, want a message naming AIMD.Release", r)
		}
	}()
	a.Release(0, 0)
}

func TestNewAIMDReportsEveryError(t *testing.T) {
	_, err := NewAIMD(AIMDConfig{Initial: 9, Min: 0, Max: -1, Backoff: 2})
	if err == nil {
		t.Fatal("NewAIMD(bad config) = nil error")
	}
	for _, want := range []string{"min", "max", "initial", "target", "backoff"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("NewAIMD error %q does not mention %s", err, want)
		}
	}
}

// checkAIMD drives random acquires and releases: the limit stays in [min, max]
// and an admitted request never leaves more than ⌊limit⌋ in flight.
func checkAIMD(t *testing.T, seed uint64, minimum, span float64, target time.Duration) {
	cfg := AIMDConfig{Min: 1 + math.Mod(math.Abs(minimum), 50), Target: 1 + target%time.Second}
	cfg.Max = cfg.Min + math.Mod(math.Abs(span), 100)
	cfg.Initial = (cfg.Min + cfg.Max) / 2
	a, err := NewAIMD(cfg)
	if err != nil {
		t.Skip(err) // NaN and friends
	}
	r := rand.New(rand.NewPCG(seed, 0))
	for i := range 2000 {
		now := time.Duration(i) * ms
		if a.InFlight() > 0 && r.IntN(2) == 0 {
			a.Release(now, time.Duration(r.Int64N(int64(2*cfg.Target))))
		} else if a.Acquire(now) && a.InFlight() > int(a.Limit()) {
			t.Fatalf("%+v op %d: %d in flight after Acquire, limit %v", cfg, i, a.InFlight(), a.Limit())
		}
		if l := a.Limit(); l < cfg.Min || l > cfg.Max {
			t.Fatalf("%+v op %d: Limit() = %v, outside [%v, %v]", cfg, i, l, cfg.Min, cfg.Max)
		}
	}
}

func TestAIMDProperties(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for range 300 {
		checkAIMD(t, r.Uint64(), r.Float64()*50, r.Float64()*100, time.Duration(r.Int64N(int64(time.Second))))
	}
}

func FuzzAIMD(f *testing.F) {
	f.Add(uint64(1), 1.0, 10.0, int64(time.Millisecond))
	f.Add(uint64(2), 20.0, 0.5, int64(time.Second))
	f.Fuzz(func(t *testing.T, seed uint64, minimum, span float64, target int64) {
		checkAIMD(t, seed, minimum, span, time.Duration(target))
	})
}
