package algorithms

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestExceedsIsTheDivision holds exceeds, the token bucket's overflow test in
// 128 bits, to the division it stands in for (cost > room/span) on random
// values and on every boundary: costs at and about room/span, zero and
// negative costs, the largest spans and rooms.
func TestExceedsIsTheDivision(t *testing.T) {
	check := func(cost, span, room int64) {
		t.Helper()
		if got, want := exceeds(cost, span, room), cost > room/span; got != want {
			t.Fatalf("exceeds(%d, %d, %d) = %v, the division says %v", cost, span, room, got, want)
		}
	}
	rnd := rand.New(rand.NewPCG(3, 5))
	edges := []int64{0, 1, 2, 3, 7, 1 << 31, math.MaxInt64 / 2, math.MaxInt64 - 1, math.MaxInt64}
	for _, span := range edges[1:] {
		for _, room := range edges {
			q := room / span
			for _, cost := range []int64{-1, 0, 1, q - 1, q, q + 1, math.MaxInt64, math.MinInt64} {
				check(cost, span, room)
			}
		}
	}
	for range 100_000 {
		span := 1 + rnd.Int64N(1<<uint(1+rnd.IntN(62)))
		room := rnd.Int64N(1 << uint(1+rnd.IntN(62)))
		cost := rnd.Int64N(1<<uint(1+rnd.IntN(62))) - 8
		check(cost, span, room)
		check(room/span+rnd.Int64N(3)-1, span, room)
	}
}
