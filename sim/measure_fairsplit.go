package sim

// countedMaxMinFair is maxMinFair for many parties whose asks span under
// countedFairSpan: the water-filling walks the asks in order from their counts
// (no party read out of order), then gives each party, in index order, the
// share of its place among the parties of its ask, ties in index order: the
// places of the stable order, so the same shares, bit for bit, in the same
// floating-point sums. The order's way read the parties and wrote the shares
// at random, two cache misses per party with millions of them.
func countedMaxMinFair[P interface{ ask() int64 }](parties []P, total, least int64, span uint64) []float64 {
	starts := make([]int, span+2)
	for _, p := range parties {
		starts[p.ask()-least+1]++
	}
	for d := 1; d < len(starts); d++ {
		starts[d] += starts[d-1]
	}
	byPlace := make([]float64, len(parties))
	left, n := float64(total), len(parties)
	for d := 0; d+1 < len(starts); d++ {
		asked := float64(least + int64(d))
		for k := starts[d]; k < starts[d+1]; k++ {
			f := min(asked, left/float64(n-k))
			byPlace[k] = f
			left -= f
		}
	}
	fair := make([]float64, n)
	for i, p := range parties {
		d := p.ask() - least
		fair[i] = byPlace[starts[d]]
		starts[d]++
	}
	return fair
}

// countedFairSpan bounds the asks' span countedMaxMinFair takes: its counts
// (8 B each) stay in the cache while it reads the shares of every ask at once.
const countedFairSpan = 1 << 16
