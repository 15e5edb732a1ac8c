package sweep

import (
	"math"
	"testing"

	"github.com/rlsim/rlsim/run"
)

func TestT975(t *testing.T) {
	// Reference quantiles of Student's t (97.5%), from statistical tables.
	for _, tc := range []struct {
		df   int
		want float64
	}{{1, 12.7062}, {2, 4.3027}, {9, 2.2622}, {30, 2.0423}, {31, 2.0395}, {40, 2.0211}, {60, 2.0003}, {120, 1.9799}, {1000, 1.9623}} {
		if got := T975(tc.df); math.Abs(got-tc.want) > 1e-4 {
			t.Errorf("T975(%d) = %.5f, want %.4f", tc.df, got, tc.want)
		}
	}
	for df := 2; df < 200; df++ {
		if T975(df) >= T975(df-1) {
			t.Errorf("T975(%d) = %v is not below T975(%d) = %v", df, T975(df), df-1, T975(df-1))
		}
	}
}

func nums(v ...float64) []run.Num {
	out := make([]run.Num, len(v))
	for i, x := range v {
		out[i] = run.Num(x)
	}
	return out
}

func TestSpreadOf(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name   string
		values []run.Num
		n      int
		mean   float64
		half   float64
	}{
		// sd of 1..5 is sqrt(2.5); half = t(4) × sd / sqrt(5)
		{"five", nums(1, 2, 3, 4, 5), 5, 3, 2.776445 * math.Sqrt(2.5) / math.Sqrt(5)},
		{"a NaN is left out", nums(1, nan, 3), 2, 2, 12.706205 * math.Sqrt2 / math.Sqrt2},
		{"one seed has no interval", nums(7), 1, 7, 0},
		{"equal values", nums(4, 4, 4), 3, 4, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := SpreadOf(tc.values)
			if s.N != tc.n || math.Abs(s.Mean-tc.mean) > 1e-12 || math.Abs(s.Half-tc.half) > 1e-9 {
				t.Errorf("SpreadOf(%v) = %+v, want n %d mean %v half %v", tc.values, s, tc.n, tc.mean, tc.half)
			}
		})
	}
	if s := SpreadOf(nums(nan, nan)); s.N != 0 || !math.IsNaN(s.Mean) {
		t.Errorf("SpreadOf(NaN, NaN) = %+v, want nothing measured", s)
	}
}

func TestDiffersOnlyBeyondTheSpread(t *testing.T) {
	tests := []struct {
		name string
		a, b []run.Num
		want bool
	}{
		{"far apart", nums(10, 11, 10, 11), nums(20, 21, 20, 21), true},
		{"overlapping", nums(10, 14, 10, 14), nums(12, 16, 12, 16), false},
		{"the same", nums(5, 5), nums(5, 5), false},
		{"one seed each, any difference", nums(5), nums(6), true},
		{"nothing measured", nums(math.NaN()), nums(6), false},
	}
	for _, tc := range tests {
		a, b := SpreadOf(tc.a), SpreadOf(tc.b)
		if got := a.Differs(b); got != tc.want || b.Differs(a) != tc.want {
			t.Errorf("%s: %+v.Differs(%+v) = %v, want %v both ways", tc.name, a, b, got, tc.want)
		}
	}
}
