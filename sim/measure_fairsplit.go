package sim

import "math"

// countedMaxMinFair is maxMinFair for many parties whose asks span under
// countedFairSpan: the water-filling walks the asks in order from their counts
// (no party read out of order), then gives each party, in index order, the
// share of its place among the parties of its ask, ties in index order: the
// places of the stable order, so the same shares, bit for bit, in the same
// floating-point sums. Only the shares below their asks are kept by place. The order's way read the parties and wrote the shares
// at random, two cache misses per party with millions of them.
func countedMaxMinFair[P interface{ ask() int64 }](parties []P, total, least int64, span uint64) []float64 {
	starts := make([]int, span+2)
	for _, p := range parties {
		starts[p.ask()-least+1]++
	}
	for d := 1; d < len(starts); d++ {
		starts[d] += starts[d-1]
	}
	// Up to the first place whose share is not its ask, every share is its
	// ask: only the places from there (tail) are kept.
	var byPlace []float64
	left, n, tail := float64(total), len(parties), len(parties)
	for d := 0; d+1 < len(starts); d++ {
		asked := float64(least + int64(d))
		for k := starts[d]; k < starts[d+1]; k++ {
			f := min(asked, left/float64(n-k))
			if byPlace == nil && math.Float64bits(f) != math.Float64bits(asked) {
				byPlace, tail = make([]float64, n-k), k
			}
			if byPlace != nil {
				byPlace[k-tail] = f
			}
			left -= f
		}
	}
	fair := make([]float64, n)
	for i, p := range parties {
		d := p.ask() - least
		if k := starts[d]; k < tail {
			fair[i] = float64(p.ask())
		} else {
			fair[i] = byPlace[k-tail]
		}
		starts[d]++
	}
	return fair
}

// countedFairSpan bounds the asks' span countedMaxMinFair takes: its counts
// (8 B each) stay in the cache while it reads the shares of every ask at once.
const countedFairSpan = 1 << 16
