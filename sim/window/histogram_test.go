package window

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

func TestHistogramPercentilesWithinOnePercent(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 0))
	h := NewHistogram()
	var all []time.Duration
	for range 200_000 {
		v := time.Duration(rnd.ExpFloat64() * float64(50*time.Millisecond))
		h.Add(v)
		all = append(all, v)
	}
	slices.Sort(all)
	for _, q := range []float64{0.5, 0.9, 0.99, 0.999} {
		exact := all[int(math.Ceil(q*float64(len(all))))-1]
		got := h.Quantile(q)
		if rel := math.Abs(float64(got-exact)) / float64(exact); rel > 0.01 {
			t.Errorf("p%v = %v, exact %v: %.2f%% off", q*100, got, exact, rel*100)
		}
	}
	if p := h.Percentiles(); p.Max != all[len(all)-1] || p.Count != int64(len(all)) || h.Count() != p.Count {
		t.Errorf("max %v count %d (Count %d), want %v and %d", p.Max, p.Count, h.Count(), all[len(all)-1], len(all))
	}
	for v := time.Duration(0); v < 100_000; v += 7 {
		if top := bucketTop(bucketOf(v)); top < v || float64(top-v) > 0.01*float64(v)+1 {
			t.Fatalf("value %v lands in a bucket topping at %v", v, top)
		}
	}
}

// Quantile is the smallest bucket top with at least q of the samples at or
// below it (values under subBuckets ns are exact). The ranks here are those
// where ⌈q·n⌉ and the code's rounded q·n agree (they differ when q·n has a
// fraction under one half, e.g. q 0.34 of 3).
func TestQuantileNearestRank(t *testing.T) {
	h := NewHistogram()
	for _, v := range []time.Duration{10, 20, 30} {
		h.Add(v)
	}
	// At least half of three samples is two of them: 20 is the first value
	// with two at or below it; 10 has only one (a third). 0.34 of three is
	// 1.02 samples: two are needed (rounding to the nearest rank gave 10).
	for _, tc := range []struct {
		q    float64
		want time.Duration
	}{{0.5, 20}, {0.6, 20}, {0.9, 30}, {0.1, 10}, {0.34, 20}, {1.0 / 3, 10}, {0.67, 30}, {2.0 / 3, 20}, {1, 30}} {
		if got := h.Quantile(tc.q); got != tc.want {
			t.Errorf("Quantile(%v) of 10, 20, 30 = %v, want %v", tc.q, got, tc.want)
		}
	}
}

// AddN records a value n times: the same summary as n Adds.
func TestAddNIsNAdds(t *testing.T) {
	one, n := NewHistogram(), NewHistogram()
	for range 5 {
		one.Add(300 * time.Microsecond)
	}
	one.Add(time.Second)
	n.AddN(300*time.Microsecond, 5)
	n.AddN(time.Second, 1)
	if a, b := one.Percentiles(), n.Percentiles(); a != b {
		t.Errorf("AddN: %+v, 6 Adds: %+v", b, a)
	}
	if var0 := (Histogram{}); !var0.IsZero() || one.IsZero() {
		t.Errorf("IsZero: zero value %v, made %v; want true, false", var0.IsZero(), one.IsZero())
	}
}

// A histogram holds the buckets of the powers of two it recorded in, and no
// others: values within [2^k, 2^(k+1)) share one octave of 128 buckets, the
// largest duration makes the 58th, and percentiles read across the gaps.
func TestHistogramHoldsOnlyTheOctavesItRecordedIn(t *testing.T) {
	held := func(h *Histogram) (n int) {
		for _, o := range h.octaves {
			if o != nil {
				n++
			}
		}
		return n
	}
	h := NewHistogram()
	if held(&h) != 0 || h.IsZero() {
		t.Fatalf("a new histogram holds %d octaves (zero %v), want none and not zero", held(&h), h.IsZero())
	}
	for v := time.Duration(1 << 20); v < 1<<21; v += 997 {
		h.Add(v) // all in one power of two
	}
	if held(&h) != 1 {
		t.Errorf("values of one power of two made %d octaves, want 1", held(&h))
	}
	h.Add(5)
	h.Add(math.MaxInt64)
	if held(&h) != 3 || len(h.octaves) != 57 {
		t.Errorf("after 5ns and the largest duration: %d octaves held of %d, want 3 of 57", held(&h), len(h.octaves))
	}
	if got := h.Quantile(0); got != 5 {
		t.Errorf("the least value read %v across the gap, want 5ns", got)
	}
	if got := h.Quantile(1); got != math.MaxInt64 {
		t.Errorf("the greatest value read %v, want the largest duration", got)
	}
	h.Reset()
	if h.Count() != 0 || h.Quantile(0.5) != 0 || held(&h) != 3 {
		t.Errorf("Reset left %d values, median %v, %d octaves; want none, 0 and the 3 kept", h.Count(), h.Quantile(0.5), held(&h))
	}
}
