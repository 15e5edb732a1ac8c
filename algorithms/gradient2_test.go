package algorithms

import (
	"math"
	"strings"
	"testing"
	"testing/quick"
	"time"
)

// The long-term average is the library's ExpAvgMeasurement: its own test
// (ExpAvgMeasurementTest.testWarmup, window 100, warmup 10) adds 10, 11, …, 19
// and expects the running means 10, 10.5, …, 14.5, then 100 gives 16.2 (±0.1).
func TestExpAverageIsTheLibrarysMeasurement(t *testing.T) {
	a := expAverage{window: 100, warmup: 10}
	for i := range 10 {
		if got, want := a.add(float64(i+10)), 10+0.5*float64(i); math.Abs(got-want) > 0.01 {
			t.Fatalf("sample %d: average %v, the library's test expects %v", i, got, want)
		}
	}
	// 14.5 × (1 − 2/101) + 100 × 2/101 = 16.193…
	if got := a.add(100); math.Abs(got-16.2) > 0.1 || math.Abs(got-(14.5*99/101+200.0/101)) > 1e-12 {
		t.Fatalf("after the warmup: %v, want 14.5×99/101 + 100×2/101 ≈ 16.19", got)
	}
}

// gradient2Step is one completion of a step table: the latency, and the limit
// after it worked out by hand from Gradient2Limit._update.
type gradient2Step struct {
	rtt   time.Duration
	limit float64
}

// A step table worked by hand with Initial 20, Min 1, Max 200, smoothing 0.2,
// queue size 4, tolerance 1.5, long window 600, always 20 in flight when a
// request completes (the lane holds the limit full).
//
//   - 10 ms ×3: long = 10 ms, gradient = min(1, 1.5) = 1: next = 20 + 4 = 24,
//     limit = 20×0.8 + 24×0.2 = 20.8; then 21.6, 22.4 (each +0.8 = smoothing×queue).
//   - 40 ms: long = (30+40)/4 = 17.5 ms, gradient = 1.5×17.5/40 = 0.65625:
//     next = 22.4×0.65625 + 4 = 18.7, limit = 22.4×0.8 + 18.7×0.2 = 21.66.
//   - 100 ms: long = (70+100)/5 = 34 ms, gradient = max(0.5, 0.51) = 0.51:
//     next = 21.66×0.51 + 4 = 15.0466, limit = 21.66×0.8 + 15.0466×0.2 = 20.33732.
//   - 1 s: long = (170+1000)/6 = 195 ms, gradient = max(0.5, 0.2925) = 0.5:
//     next = 20.33732×0.5 + 4 = 14.16866, limit = 16.269856 + 2.833732 = 19.103588.
//   - 1 ms: long = (1170+1)/7 = 167.2857… ms, long/short > 2, so long ×= 0.95;
//     gradient = 1: next = 19.103588 + 4, limit = 19.103588 + 0.8 = 19.903588.
func TestGradient2StepTable(t *testing.T) {
	g, err := NewGradient2(Gradient2Config{Min: 1})
	if err != nil {
		t.Fatal(err)
	}
	ms := time.Millisecond
	steps := []gradient2Step{{10 * ms, 20.8}, {10 * ms, 21.6}, {10 * ms, 22.4}, {40 * ms, 21.66},
		{100 * ms, 20.33732}, {time.Second, 19.103588}, {ms, 19.903588}}
	for i, s := range steps {
		holdInFlight(g, 20)
		g.Release(0, s.rtt)
		if math.Abs(g.Limit()-s.limit) > 1e-9 {
			t.Fatalf("step %d (rtt %v): limit %.9f, worked out by hand %.9f", i, s.rtt, g.Limit(), s.limit)
		}
	}
	wantLong := float64(1171*ms) / 7 * 0.95
	if math.Abs(g.long.value-wantLong) > 1 {
		t.Fatalf("the long-term latency after the fast sample is %v ns, want (1171 ms / 7) × 0.95 = %v", g.long.value, wantLong)
	}
}

// holdInFlight acquires until n requests are in flight (the limit permitting).
func holdInFlight(g *Gradient2, n int) {
	for g.InFlight() < n && g.Acquire(0) {
	}
	for g.InFlight() > n {
		g.inFlight--
	}
}

// While fewer than half the limit are in flight the limit does not move ("don't
// grow the limit if we are app limited"), and the long-term latency still learns.
// With exactly half in flight it does move: the library's test is inflight < limit/2.
func TestGradient2AppLimitedHoldsTheLimit(t *testing.T) {
	g, _ := NewGradient2(Gradient2Config{Min: 1})
	holdInFlight(g, 10) // released with 10 in flight: 10 < 20/2 is false
	g.Release(0, 10*time.Millisecond)
	if g.Limit() != 20.8 {
		t.Fatalf("at half the limit in flight the limit is %v, want 20.8 (it grows)", g.Limit())
	}
	holdInFlight(g, 10) // 10 < 20.8/2
	g.Release(0, 10*time.Millisecond)
	if g.Limit() != 20.8 || g.long.count != 2 {
		t.Fatalf("under half in flight: limit %v (want 20.8 unchanged), %d samples averaged (want 2)", g.Limit(), g.long.count)
	}
}

// The limit never leaves [Min, Max], whatever the latencies; a zero latency
// changes nothing; Acquire never admits past ⌊limit⌋.
func TestGradient2StaysInBoundsProperty(t *testing.T) {
	prop := func(rtts []uint32, min8, span8 uint8, smooth uint16) bool {
		lo := float64(min8%50) + 1
		cfg := Gradient2Config{Initial: lo, Min: lo, Max: lo + float64(span8), Smoothing: float64(smooth%1000+1) / 1000}
		g, err := NewGradient2(cfg)
		if err != nil {
			return false
		}
		for _, r := range rtts {
			admitted := 0
			for g.Acquire(0) {
				admitted++
			}
			if g.InFlight() != int(g.Limit()) {
				return false
			}
			before := g.Limit()
			g.Release(0, time.Duration(r%2_000_000))
			if r%2_000_000 == 0 && g.Limit() != before {
				return false
			}
			if g.Limit() < cfg.Min || g.Limit() > cfg.Max || math.IsNaN(g.Limit()) {
				return false
			}
			for range admitted - 1 {
				g.Release(0, 0)
			}
		}
		return true
	}
	if err := quick.Check(prop, nil); err != nil {
		t.Fatal(err)
	}
}

func TestGradient2RefusesBadSettings(t *testing.T) {
	for _, c := range []struct {
		cfg  Gradient2Config
		word string
	}{
		{Gradient2Config{Max: math.MaxInt32 + 1}, "max"},
		{Gradient2Config{Max: math.NaN()}, "max"},
		{Gradient2Config{Min: 30, Max: 25, Initial: 20}, "min"},
		{Gradient2Config{Initial: 300}, "initial"},
		{Gradient2Config{Smoothing: 1.5}, "smoothing"},
		{Gradient2Config{Smoothing: math.Inf(1)}, "smoothing"},
		{Gradient2Config{QueueSize: -1}, "queue_size"},
		{Gradient2Config{LongWindow: -3}, "long_window"},
		{Gradient2Config{RTTTolerance: 0.5}, "rtt_tolerance"},
		{Gradient2Config{RTTTolerance: math.NaN()}, "rtt_tolerance"},
	} {
		_, err := NewGradient2(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.word) {
			t.Errorf("%+v: error %v, want one naming %s", c.cfg, err, c.word)
		}
	}
	if _, err := NewGradient2(Gradient2Config{Min: 200, Max: 200, Initial: 200, RTTTolerance: 1, Smoothing: 1}); err != nil {
		t.Errorf("the bounds themselves are allowed: %v", err)
	}
}
