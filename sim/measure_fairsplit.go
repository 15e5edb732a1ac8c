package sim

import "math"

// asker is a party of a fair split: what it asked for, a count of requests (0
// or more).
type asker interface{ ask() int64 }

// waterLevel is the level of the max-min fair split of total among parties
// (water-filling): each party is owed min(its ask, the level), and the level
// spends all of total, or is +Inf when total meets every ask. Found in integers
// over the asks in ascending order, each run of equal asks at once: the parties
// of the smallest ask left are met in full while it is at most an even split
// of what is left among the parties left (ask·left parties ≤ left, tested as
// ask ≤ ⌊left / parties⌋); at the first ask above it the level is that even
// split, one division, rounded once. So the level is exact (to the nearest
// float64), ties owe the same to the bit, and no share drifts with the order
// of a sum. The asks are counted (countedLevel) when they span less than
// countedFairSpan, sorted in linear time (orderByAsk) otherwise.
func waterLevel[P asker](parties []P, total int64) float64 {
	if len(parties) == 0 {
		return math.Inf(1)
	}
	least, span := askSpan(parties)
	return waterLevelIn(parties, total, least, span)
}

// waterLevelIn is waterLevel for parties whose asks are from least to
// least+span (askSpan).
func waterLevelIn[P asker](parties []P, total, least int64, span uint64) float64 {
	if len(parties) >= radixFrom && span < countedFairSpan && !countedFairOff {
		return countedLevel(parties, total, least, span)
	}
	order := orderByAsk(parties)
	fill := waterFill{left: total, parties: int64(len(parties))}
	for k := 0; k < len(order); {
		ask, run := parties[order[k]].ask(), 0
		for k+run < len(order) && parties[order[k+run]].ask() == ask {
			run++
		}
		if level, done := fill.next(ask, int64(run)); done {
			return level
		}
		k += run
	}
	return math.Inf(1)
}

// countedLevel is waterLevel for asks from least to least+span, span under
// countedFairSpan: the runs of equal asks are counted in one pass, in order.
func countedLevel[P asker](parties []P, total, least int64, span uint64) float64 {
	counts := make([]int64, span+1)
	for _, p := range parties {
		counts[p.ask()-least]++
	}
	fill := waterFill{left: total, parties: int64(len(parties))}
	for d, run := range counts {
		if run == 0 {
			continue
		}
		if level, done := fill.next(least+int64(d), run); done {
			return level
		}
	}
	return math.Inf(1)
}

// waterFill is the water-filling under way: what is left to split, among how
// many parties.
type waterFill struct{ left, parties int64 }

// next meets run parties of ask in full, or, when their ask is above an even
// split of what is left, returns that split as the level (done).
func (w *waterFill) next(ask, run int64) (level float64, done bool) {
	if ask > w.left/w.parties {
		return float64(w.left) / float64(w.parties), true
	}
	w.left -= ask * run
	w.parties -= run
	return 0, false
}

// fairShare is what a party that asked ask is owed at level.
func fairShare(ask int64, level float64) float64 { return min(float64(ask), level) }

// countedFairSpan bounds the asks' span countedLevel takes: its counts
// (8 B each) stay in the cache while it reads every party once.
const countedFairSpan = 1 << 16
