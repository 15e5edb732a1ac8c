package sim

import (
	"cmp"
	"math/bits"
	"slices"
)

// orderByAsk is the parties' indexes in the order of what they asked, ties in
// index order: the order a stable sort by ask gives, in time linear in the
// parties. Asks are counts of requests, small integers next to the number of
// parties, so a stable radix sort on them (a single counting pass when their
// range is under a million) costs a few passes over the parties where a
// comparison sort cost n·log n (and half of a 10 M-client run).
func orderByAsk[P asker](parties []P) []int32 {
	if len(parties) < radixFrom {
		order := make([]int32, len(parties))
		for i := range order {
			order[i] = int32(i)
		}
		slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(parties[a].ask(), parties[b].ask()) })
		return order
	}
	least, span := askSpan(parties)
	if span < 1<<radixBits {
		return countingOrder(parties, least, span)
	}
	keys := make([]uint64, len(parties))
	order, tmp := make([]int32, len(parties)), make([]int32, len(parties))
	for i, p := range parties {
		keys[i] = uint64(p.ask()) - uint64(least)
		order[i] = int32(i)
	}
	for shift := 0; shift < bits.Len64(span); shift += radixBits {
		radixPass(order, tmp, keys, shift)
		order, tmp = tmp, order
	}
	return order
}

// countingOrder is orderByAsk for asks from least to least+span, span under
// 2^radixBits: one counting sort, reading the parties in order.
func countingOrder[P asker](parties []P, least int64, span uint64) []int32 {
	counts := make([]int, span+2)
	for _, p := range parties {
		counts[p.ask()-least+1]++
	}
	for d := 1; d < len(counts); d++ {
		counts[d] += counts[d-1]
	}
	order := make([]int32, len(parties))
	for i, p := range parties {
		d := p.ask() - least
		order[counts[d]] = int32(i)
		counts[d]++
	}
	return order
}

// radixFrom is the number of parties from which orderByAsk sorts by radix:
// under it the radix's counts cost more than the comparisons.
const radixFrom = 256

// radixBits is the width of the digit each radix pass sorts on: 2^20 counts
// (8 MiB) is one pass for any ask under about a million.
const radixBits = 20

// askSpan is the least ask and how far the largest is above it, as unsigned
// (the difference of two int64s fits a uint64; keys ask−least keep the order
// across the sign).
func askSpan[P asker](parties []P) (least int64, span uint64) {
	least, most := parties[0].ask(), parties[0].ask()
	for _, p := range parties {
		least, most = min(least, p.ask()), max(most, p.ask())
	}
	return least, uint64(most) - uint64(least)
}

// radixPass writes into dst the indexes of src stably sorted by the digit of
// their keys at shift (radixBits wide): a counting sort.
func radixPass(src, dst []int32, keys []uint64, shift int) {
	const mask = 1<<radixBits - 1
	var top uint64
	for _, i := range src {
		top = max(top, keys[i]>>shift&mask)
	}
	counts := make([]int, top+2)
	for _, i := range src {
		counts[keys[i]>>shift&mask+1]++
	}
	for d := 1; d < len(counts); d++ {
		counts[d] += counts[d-1]
	}
	for _, i := range src {
		d := keys[i] >> shift & mask
		dst[counts[d]] = i
		counts[d]++
	}
}
