package sim

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
	"testing/quick"
)

// fairSplit is each party's share of the max-min fair split of total.
func fairSplit[P asker](parties []P, total int64) []float64 {
	level := waterLevel(parties, total)
	fair := make([]float64, len(parties))
	for i, p := range parties {
		fair[i] = fairShare(p.ask(), level)
	}
	return fair
}

// exactLevel is the max-min fair level by the definition, in exact rationals:
// the L with Σ min(ask, L) = total, found by trying each party's ask in turn
// as the level (the asks at or under it met in full, the rest even); nil when
// total meets every ask.
func exactLevel(parties []share, total int64) *big.Rat {
	asks := make([]int64, len(parties))
	for i, p := range parties {
		asks[i] = p.asked
	}
	slices.Sort(asks)
	met := new(big.Rat)
	for k, a := range asks {
		// Parties k.. share what the first k left, evenly: is that even split at most a?
		left := new(big.Rat).Sub(new(big.Rat).SetInt64(total), met)
		even := new(big.Rat).Quo(left, new(big.Rat).SetInt64(int64(len(asks)-k)))
		if even.Cmp(new(big.Rat).SetInt64(a)) < 0 {
			return even
		}
		met.Add(met, new(big.Rat).SetInt64(a))
	}
	return nil
}

// TestWaterLevelIsTheExactOne: on arbitrary asks (few values and ties, spans up
// to just under countedFairSpan and beyond it, zero asks, a long run of one
// ask, large asks close together) and totals from nothing to more than every
// ask, the level is the exact max-min level rounded to the nearest float64, bit
// for bit the same whether the asks are counted or sorted; the shares spend
// all of total when it is short of the asks, and each is its ask otherwise.
func TestWaterLevelIsTheExactOne(t *testing.T) {
	prop := func(seed uint64, n uint16, shape uint8) bool {
		r := rand.New(rand.NewPCG(seed, 11))
		parties := make([]share, 1+int(n)%(2*radixFrom+2000))
		var sum int64
		for i := range parties {
			var a int64
			switch shape % 6 {
			case 0: // a few small values: Poisson-like, ties everywhere
				a = r.Int64N(5)
			case 1: // the widest span counted
				a = r.Int64N(countedFairSpan)
			case 2: // a span too wide to count
				a = r.Int64N(1 << 30)
			case 3: // one ask for most, a few large
				a = 2
				if r.IntN(50) == 0 {
					a = 1000 + r.Int64N(1000)
				}
			case 4: // zero for most
				a = r.Int64N(2) * r.Int64N(9)
			default: // large and close together
				a = 1<<40 + r.Int64N(300)
			}
			parties[i].asked = a
			sum += a
		}
		total := []int64{0, 1, sum / 3, sum * 4 / 5, sum - 1, sum, sum + 17}[r.IntN(7)]
		counted := waterLevel(parties, total)
		countedFairOff = true
		sorted := waterLevel(parties, total)
		countedFairOff = false
		if math.Float64bits(counted) != math.Float64bits(sorted) {
			t.Logf("%d parties, total %d: counted level %v, sorted %v", len(parties), total, counted, sorted)
			return false
		}
		exact := exactLevel(parties, total)
		if exact == nil {
			if !math.IsInf(counted, 1) {
				t.Logf("%d parties asking %d, total %d: level %v, want +Inf", len(parties), sum, total, counted)
			}
			return math.IsInf(counted, 1)
		}
		if want, _ := exact.Float64(); counted != want {
			t.Logf("%d parties, total %d: level %v, exact %v (%v)", len(parties), total, counted, want, exact)
			return false
		}
		var spent float64
		for _, f := range fairSplit(parties, total) {
			spent += f
		}
		if math.Abs(spent-float64(total)) > 1e-9*float64(total) {
			t.Logf("%d parties, total %d: shares spend %v", len(parties), total, spent)
			return false
		}
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 80}); err != nil {
		t.Error(err)
	}
}
