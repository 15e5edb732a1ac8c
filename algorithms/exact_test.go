package algorithms

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestDivisorMatchesHardwareDivide(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	ds := []int64{1, 2, 3, 7, 10, 1_000_000_007, math.MaxInt64, math.MaxInt64 - 1, 1 << 62}
	xs := []int64{0, 1, 2, math.MaxInt64, math.MaxInt64 - 1, 1 << 62}
	for range 100_000 {
		ds = append(ds[:9], r.Int64N(math.MaxInt64)+1, r.Int64N(1000)+1)
		xs = append(xs[:6], r.Int64(), r.Int64N(1_000_000))
		for _, d := range ds {
			v := newDivisor(d)
			for _, x := range xs {
				if got, want := v.div(x), x/d; got != want {
					t.Fatalf("divisor(%d).div(%d) = %d, want %d", d, x, got, want)
				}
			}
		}
	}
}
