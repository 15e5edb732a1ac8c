package contention

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestStudentT975(t *testing.T) {
	// Exact values (R: qt(0.975, df)).
	for _, tt := range []struct {
		df   int
		want float64
	}{{1, 12.7062}, {4, 2.7764}, {30, 2.0423}, {31, 2.0395}, {40, 2.0211}, {60, 2.0003}, {120, 1.9799}, {1000, 1.9623}} {
		if got := studentT975(tt.df); math.Abs(got-tt.want) > 1e-4 {
			t.Errorf("studentT975(%d) = %.5f, want %.4f", tt.df, got, tt.want)
		}
	}
}

func TestMeanInterval(t *testing.T) {
	var m meanInterval
	for _, x := range []float64{1, 2, 3, 4, 5} {
		m.add(x)
	}
	// sd = √2.5; half-width = 2.7764 × √2.5 / √5.
	mean, low, high := m.bounds()
	half := 2.7764 * math.Sqrt(2.5) / math.Sqrt(5)
	if mean != 3 || math.Abs(low-(3-half)) > 1e-9 || math.Abs(high-(3+half)) > 1e-9 {
		t.Errorf("bounds of 1..5 = %v [%v, %v], want 3 [%v, %v]", mean, low, high, 3-half, 3+half)
	}
	var one meanInterval
	one.add(7)
	if mean, low, high := one.bounds(); mean != 7 || low != 7 || high != 7 {
		t.Errorf("bounds of one sample = %v [%v, %v], want 7 [7, 7]: no spread is known", mean, low, high)
	}
}

// A 95% interval covers the true mean in about 95% of samples.
func TestMeanIntervalCoverage(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{2, 5, 40} {
		const trials = 4000
		covered := 0
		for range trials {
			var m meanInterval
			for range n {
				m.add(10 + 3*r.NormFloat64())
			}
			if _, low, high := m.bounds(); low <= 10 && 10 <= high {
				covered++
			}
		}
		// Binomial(4000, 0.95) has sd 0.34%; allow 4 sd.
		if p := float64(covered) / trials; math.Abs(p-0.95) > 0.014 {
			t.Errorf("n = %d: the interval covered the mean in %.1f%% of trials, want 95%%", n, 100*p)
		}
	}
}
