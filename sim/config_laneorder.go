package sim

import (
	"cmp"
	"slices"
)

// laneOrder is the order in which workers take the lanes up when they run at
// once: the lanes expected to take longest first, ties in lane order, so that
// the last lanes to start are short ones and no core idles while one long
// lane runs alone at the end (longest processing time first). Results stay in
// lane order whatever the order the lanes ran in. Lanes that share requests
// (shared, led by the first, see sharingLanes) run on one core: their leader
// weighs what they all do, its followers nothing.
func (c *Config) laneOrder(shared ...int) []int {
	order := make([]int, len(c.Lanes))
	weight := make([]int, len(c.Lanes))
	for i := range order {
		order[i], weight[i] = i, c.laneWork(i)
	}
	if len(shared) > 0 {
		for _, i := range shared[1:] {
			weight[shared[0]] += weight[i]
			weight[i] = 0
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(weight[b], weight[a]) })
	return order
}

// Relative work per attempt of lane i's way of deciding (laneWork), ranked by
// the CPU each took on testdata/bench/100m.yaml (docs/performance.md).
const (
	workVerdictOnly = 1 // one limit that admits by verdict alone (quickPath)
	workConcurrency = 2 // a concurrency limiter: a decision and a completion per request
	workGate        = 3 // a client gate before the chain
	workFullChain   = 4 // a chain of several limits, decided in full, or a limit that delays (a release event each)
)

// laneWork is how much work an attempt of lane i is expected to take, by how
// the lane decides it (see workVerdictOnly and on).
func (c *Config) laneWork(i int) int {
	kind := c.Lanes[i]
	if !kind.known() {
		return workFullChain
	}
	switch kind.Info().Class {
	case ConcurrencyLimiter:
		return workConcurrency
	case ClientGate:
		return workGate
	}
	if len(c.Limits) != 1 || c.Topology != nil {
		return workFullChain
	}
	d, err := newDecider(c.laneConfig(i).ruleOf(kind, 0), c.policy(i, 0), 0)
	if q, ok := d.(admitter); err == nil && ok && q.admits() {
		return workVerdictOnly
	}
	return workFullChain
}
