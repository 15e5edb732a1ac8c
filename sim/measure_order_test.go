package sim

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/quick"
)

// stableByAsk is the reference orderByAsk must equal: a comparison sort,
// stable, of the indexes by ask.
func stableByAsk(parties []share) []int32 {
	order := make([]int32, len(parties))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(parties[a].asked, parties[b].asked) })
	return order
}

// TestOrderByAskIsTheStableSort: on arbitrary asks (any int64, extremes and
// sign included, few distinct values so that ties are many, and ranges wider
// than one radix digit, ending just past one digit or one bit), of arbitrary numbers of parties on both sides of
// radixFrom, orderByAsk is the stable sort's order index for index.
func TestOrderByAskIsTheStableSort(t *testing.T) {
	extremes := []int64{math.MinInt64, math.MinInt64 + 1, -1, 0, 1, 1 << radixBits, 1<<radixBits - 1, math.MaxInt64 - 1, math.MaxInt64}
	prop := func(seed uint64, n uint16, shape uint8) bool {
		r := rand.New(rand.NewPCG(seed, 7))
		parties := make([]share, int(n)%1200)
		for i := range parties {
			var a int64
			switch shape % 7 {
			case 0: // few distinct small values: ties everywhere
				a = r.Int64N(4)
			case 1: // anything
				a = int64(r.Uint64())
			case 2: // the extremes
				a = extremes[r.IntN(len(extremes))]
			case 3: // wider than one digit, not two
				a = r.Int64N(1 << (radixBits + 5))
			case 4: // negative and positive around zero
				a = r.Int64N(2001) - 1000
			case 5: // two values: a span of one bit
				a = r.Int64N(2)
			default: // a span of one digit and one bit: two passes, the second on one bit
				a = r.Int64N(2)<<radixBits | r.Int64N(3)
			}
			parties[i].asked = a
		}
		got, want := orderByAsk(parties), stableByAsk(parties)
		if !slices.Equal(got, want) {
			t.Logf("n %d, shape %d: orderByAsk %v..., stable sort %v...", len(parties), shape%7, got[:min(8, len(got))], want[:min(8, len(want))])
			return false
		}
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 150}); err != nil {
		t.Error(err)
	}
}

// TestOrderByAskRadixByHand: 300 parties (the radix path) asking 2, 1, 0, 2,
// 1, 0, ... come out as every third from index 2 (the zeros), then from 1,
// then from 0, each run in index order.
func TestOrderByAskRadixByHand(t *testing.T) {
	parties := make([]share, 300)
	for i := range parties {
		parties[i].asked = int64(2 - i%3)
	}
	got := orderByAsk(parties)
	for k, i := range got {
		run, pos := k/100, k%100
		if want := int32(3*pos + 2 - run); i != want {
			t.Fatalf("orderByAsk[%d] = %d, want %d", k, i, want)
		}
	}
}
