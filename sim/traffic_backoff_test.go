package sim

import (
	"math"
	"math/bits"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim/engine"
)

// capped is min(cap, base×2^(n−1)) computed with a 128-bit product, so it cannot
// overflow the way a loop of doublings could.
func capped(base, cap time.Duration, n int) time.Duration {
	if n < 1 {
		n = 1
	}
	if n-1 >= 64 {
		return cap
	}
	hi, lo := bits.Mul64(uint64(base), 1<<(n-1))
	if hi != 0 || lo > uint64(cap) {
		return cap
	}
	return time.Duration(lo)
}

func exponentialRetry(base, cap time.Duration, j JitterKind) Retry {
	return Retry{Kind: RetryExponential, Base: base, Cap: cap, Jitter: j}
}

func TestBackoffNone(t *testing.T) {
	const base, cap = 5 * time.Millisecond, 2 * time.Second
	// The schedule spelled out: it doubles from base and stops at cap.
	steps := []struct {
		n    int
		want time.Duration
	}{
		{1, 5 * time.Millisecond}, {2, 10 * time.Millisecond}, {3, 20 * time.Millisecond},
		{4, 40 * time.Millisecond}, {8, 640 * time.Millisecond}, {9, 1280 * time.Millisecond},
		{10, 2 * time.Second}, {11, 2 * time.Second}, {1000, 2 * time.Second},
		{math.MaxInt, 2 * time.Second},
	}
	r := exponentialRetry(base, cap, JitterNone)
	for _, s := range steps {
		rnd := engine.NewStream(1)
		if got := backoff(r, s.n, 0, &rnd); got != s.want {
			t.Errorf("backoff(none, n=%d) = %v, want %v", s.n, got, s.want)
		}
		if rnd != engine.NewStream(1) {
			t.Errorf("backoff(none, n=%d) drew from the stream; want no draw, so other draws keep their order", s.n)
		}
	}

	tests := []struct {
		name      string
		base, cap time.Duration
	}{
		{"blog", base, cap},
		{"base equals cap", time.Second, time.Second},
		{"1ns base, 1h cap", 1, time.Hour},
		{"cap not a power of two times base", 3 * time.Millisecond, 1000 * time.Millisecond},
		{"cap near the largest duration", 3, math.MaxInt64 - 1},
		{"base near half the largest duration", 1 << 62, math.MaxInt64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := exponentialRetry(tt.base, tt.cap, JitterNone)
			for _, n := range []int{1, 2, 3, 5, 8, 13, 20, 31, 62, 63, 64, 65, 1 << 20} {
				if got, want := backoff(r, n, 0, new(engine.Stream)), capped(tt.base, tt.cap, n); got != want {
					t.Errorf("backoff(none, base %v, cap %v, n=%d) = %v, want %v", tt.base, tt.cap, n, got, want)
				}
			}
		})
	}
}

// drawStats draws backoff n times and returns the least, greatest and mean sleep.
func drawStats(r Retry, n int, previous time.Duration, seed uint64, draws int) (lo, hi time.Duration, mean float64) {
	rnd := engine.NewStream(seed)
	lo, hi = math.MaxInt64, math.MinInt64
	var sum float64
	for range draws {
		d := backoff(r, n, previous, &rnd)
		lo, hi = min(lo, d), max(hi, d)
		sum += float64(d)
	}
	return lo, hi, sum / float64(draws)
}

func TestBackoffFullAndEqual(t *testing.T) {
	const base, cap = 5 * time.Millisecond, 2 * time.Second
	const draws = 100_000
	for _, n := range []int{1, 2, 4, 7, 9, 10, 20, 200} {
		sleep := capped(base, cap, n)
		// A uniform over a range of width w has sd w/√12; its mean over the draws,
		// w/√(12·draws). Allow 5 sd.
		tol := func(w time.Duration) float64 { return 5 * float64(w) / math.Sqrt(12*draws) }

		lo, hi, mean := drawStats(exponentialRetry(base, cap, JitterFull), n, 0, uint64(n), draws)
		if lo < 0 || hi > sleep {
			t.Errorf("full jitter, n=%d: sleeps in [%v, %v], want within [0, %v]", n, lo, hi, sleep)
		}
		if lo > sleep/100 || hi < sleep-sleep/100 {
			t.Errorf("full jitter, n=%d: sleeps in [%v, %v], want the whole of [0, %v]", n, lo, hi, sleep)
		}
		if want := float64(sleep) / 2; math.Abs(mean-want) > tol(sleep) {
			t.Errorf("full jitter, n=%d: mean sleep %v, want %v (half of %v)", n, time.Duration(mean), time.Duration(want), sleep)
		}

		lo, hi, mean = drawStats(exponentialRetry(base, cap, JitterEqual), n, 0, uint64(n), draws)
		if lo < sleep/2 || hi > sleep {
			t.Errorf("equal jitter, n=%d: sleeps in [%v, %v], want within [%v, %v]", n, lo, hi, sleep/2, sleep)
		}
		if lo > sleep/2+sleep/100 || hi < sleep-sleep/100 {
			t.Errorf("equal jitter, n=%d: sleeps in [%v, %v], want the whole of [%v, %v]", n, lo, hi, sleep/2, sleep)
		}
		if want := float64(sleep) * 3 / 4; math.Abs(mean-want) > tol(sleep/2) {
			t.Errorf("equal jitter, n=%d: mean sleep %v, want %v (3/4 of %v)", n, time.Duration(mean), time.Duration(want), sleep)
		}
	}
}

func TestBackoffDecorrelated(t *testing.T) {
	const base, cap = 5 * time.Millisecond, 2 * time.Second
	const draws = 100_000
	r := exponentialRetry(base, cap, JitterDecorrelated)
	tests := []struct {
		name     string
		previous time.Duration
		hi       time.Duration // the top of the range: min(cap, 3×max(previous, base))
	}{
		{"first retry", 0, 3 * base},
		{"previous below base", base / 2, 3 * base},
		{"previous base", base, 3 * base},
		{"previous 100ms", 100 * time.Millisecond, 300 * time.Millisecond},
		{"3×previous over cap", time.Second, cap},
		{"previous at cap", cap, cap},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lo, hi, mean := drawStats(r, 1, tt.previous, 7, draws)
			if lo < base || hi > tt.hi {
				t.Errorf("sleeps in [%v, %v], want within [%v, %v]", lo, hi, base, tt.hi)
			}
			if span := tt.hi - base; lo > base+span/100 || hi < tt.hi-span/100 {
				t.Errorf("sleeps in [%v, %v], want the whole of [%v, %v]", lo, hi, base, tt.hi)
			}
			// uniform(base, 3×previous), then capped: the mean is that of min(cap, U).
			top := 3 * max(tt.previous, base)
			a, b, c := float64(base), float64(top), float64(min(cap, top))
			want := ((c*c-a*a)/2 + c*(b-c)) / (b - a)
			if math.Abs(mean-want) > 5*(b-a)/math.Sqrt(12*draws) {
				t.Errorf("mean sleep %v, want %v", time.Duration(mean), time.Duration(want))
			}
		})
	}
	t.Run("n is ignored", func(t *testing.T) {
		for _, n := range []int{1, 5, 100} {
			a, b := engine.NewStream(8), engine.NewStream(8)
			if x, y := backoff(r, 1, 40*time.Millisecond, &a), backoff(r, n, 40*time.Millisecond, &b); x != y {
				t.Errorf("backoff(decorrelated, n=1) = %v, n=%d = %v from the same stream; want the same", x, n, y)
			}
		}
	})
	t.Run("a chain stays within [base, cap]", func(t *testing.T) {
		rnd := engine.NewStream(9)
		var sleep time.Duration
		reachedCap := false
		for n := 1; n <= 1000; n++ {
			sleep = backoff(r, n, sleep, &rnd)
			if sleep < base || sleep > cap {
				t.Fatalf("retry %d slept %v, want within [%v, %v]", n, sleep, base, cap)
			}
			reachedCap = reachedCap || sleep == cap
		}
		if !reachedCap {
			t.Errorf("1000 retries never slept the cap %v; each sleep can triple, so the chain should reach it", cap)
		}
	})
}

// TestBackoffFixedStream pins how each kind draws: with a fixed stream, full and
// equal jitter take exactly one duration draw over the documented range, none
// takes nothing, so a client's later draws do not depend on its jitter kind.
func TestBackoffFixedStream(t *testing.T) {
	const base, cap = 5 * time.Millisecond, 2 * time.Second
	const previous = 30 * time.Millisecond
	for _, n := range []int{1, 3, 12} {
		sleep := capped(base, cap, n)
		tests := []struct {
			j    JitterKind
			want func(s *engine.Stream) time.Duration
		}{
			{JitterNone, func(*engine.Stream) time.Duration { return sleep }},
			{JitterFull, func(s *engine.Stream) time.Duration { return s.Duration(sleep) }},
			{JitterEqual, func(s *engine.Stream) time.Duration { return sleep/2 + s.Duration(sleep-sleep/2) }},
			{JitterDecorrelated, func(s *engine.Stream) time.Duration { return min(cap, s.Between(base, 3*previous)) }},
		}
		for _, tt := range tests {
			for seed := range uint64(20) {
				got, want := engine.NewStream(seed, 1), engine.NewStream(seed, 1)
				if g, w := backoff(exponentialRetry(base, cap, tt.j), n, previous, &got), tt.want(&want); g != w {
					t.Errorf("%v, n=%d, seed %d: backoff = %v, want %v", tt.j, n, seed, g, w)
				}
				if got != want {
					t.Errorf("%v, n=%d, seed %d: backoff left the stream at %x, want %x (one draw per random term)", tt.j, n, seed, got, want)
				}
			}
		}
	}
}

func BenchmarkBackoff(b *testing.B) {
	for _, j := range []JitterKind{JitterNone, JitterFull, JitterEqual, JitterDecorrelated} {
		b.Run(j.String(), func(b *testing.B) {
			r := exponentialRetry(5*time.Millisecond, 2*time.Second, j)
			rnd := engine.NewStream(1)
			var sleep time.Duration
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				n++
				sleep = backoff(r, n%12+1, sleep, &rnd)
			}
		})
	}
}
