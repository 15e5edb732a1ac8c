package sim

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestCountedFairSwitchChangesNoFigure turns countedFairOff (the harness's
// switch for measure_fairsplit.go) on and off around fairness and keyFairness
// on populations of 256 clients and more (the harness's worlds have fewer, so
// they never reach the counted split): Jain's indexes and every class's fair
// share are the same, bit for bit. Checked against a planted bug: the water
// level divided by one party too many.
func TestCountedFairSwitchChangesNoFigure(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 9))
	for round := range 20 {
		n := radixFrom + r.IntN(3000)
		clients, groupOf, keyOf := make([]clientState, n), make([]int32, n), make([]int32, n)
		groups, keys := 1+r.IntN(4), 1+r.IntN(n)
		for i := range clients {
			asked := r.Int64N(int64(1 + round%6*3))
			clients[i] = clientState{requests: asked, succeeded: int32(r.Int64N(asked + 1))}
			groupOf[i], keyOf[i] = int32(r.IntN(groups)), int32(r.IntN(keys))
		}
		type figures struct {
			byClient, byClass, byKey float64
			shares                   []float64
		}
		measure := func(off bool) figures {
			countedFairOff = off
			defer func() { countedFairOff = false }()
			classes := make([]ClassResult, groups)
			for i, c := range clients {
				classes[groupOf[i]].Succeeded += int64(c.succeeded)
			}
			var f figures
			f.byClient, f.byClass = fairness(clients, groupOf, classes)
			f.byKey = keyFairness(clients, keyOf, keys)
			for _, c := range classes {
				f.shares = append(f.shares, c.FairShare)
			}
			return f
		}
		got, want := measure(false), measure(true)
		same := math.Float64bits(got.byClient) == math.Float64bits(want.byClient) &&
			math.Float64bits(got.byClass) == math.Float64bits(want.byClass) && math.Float64bits(got.byKey) == math.Float64bits(want.byKey)
		for g := range got.shares {
			same = same && math.Float64bits(got.shares[g]) == math.Float64bits(want.shares[g])
		}
		if !same {
			t.Fatalf("round %d, %d clients: counted %+v, ordered %+v", round, n, got, want)
		}
	}
}
