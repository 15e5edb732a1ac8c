package sim

import (
	"math"
	"math/rand/v2"
	"testing"
	"testing/quick"
)

// orderedMaxMinFair is the water-filling through the parties' stable order,
// the reference countedMaxMinFair must equal bit for bit.
func orderedMaxMinFair(parties []share, total int64) []float64 {
	order := stableByAsk(parties)
	fair := make([]float64, len(parties))
	left := float64(total)
	for k, i := range order {
		fair[i] = min(float64(parties[i].asked), left/float64(len(order)-k))
		left -= fair[i]
	}
	return fair
}

// TestCountedMaxMinFairIsTheOrderedOne: on arbitrary asks (few values and ties,
// spans up to just under countedFairSpan, negative and zero asks, a long run
// of one ask) and totals from nothing to more than every ask, maxMinFair with
// its counted split, and the counted split alone, give each party exactly
// (bit for bit) the share the ordered water-filling gives.
func TestCountedMaxMinFairIsTheOrderedOne(t *testing.T) {
	prop := func(seed uint64, n uint16, shape uint8) bool {
		r := rand.New(rand.NewPCG(seed, 11))
		parties := make([]share, radixFrom+int(n)%2000)
		var sum int64
		for i := range parties {
			var a int64
			switch shape % 5 {
			case 0: // a few small values: Poisson-like, ties everywhere
				a = r.Int64N(5)
			case 1: // the widest span taken
				a = r.Int64N(countedFairSpan)
			case 2: // negatives and zero
				a = r.Int64N(7) - 3
			case 3: // one ask for most, a few large
				a = 2
				if r.IntN(50) == 0 {
					a = 1000 + r.Int64N(1000)
				}
			default: // large and close together
				a = 1<<40 + r.Int64N(300)
			}
			parties[i].asked = a
			sum += max(a, 0)
		}
		total := []int64{0, 1, sum / 3, sum * 4 / 5, sum, sum + 17}[r.IntN(6)]
		want := orderedMaxMinFair(parties, total)
		least, span := askSpan(parties)
		counted := countedMaxMinFair(parties, total, least, span)
		got := maxMinFair(parties, total)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) || math.Float64bits(counted[i]) != math.Float64bits(want[i]) {
				t.Logf("party %d of %d (asked %d, total %d): maxMinFair %v, counted %v, want %v",
					i, len(parties), parties[i].asked, total, got[i], counted[i], want[i])
				return false
			}
		}
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 60}); err != nil {
		t.Error(err)
	}
}
