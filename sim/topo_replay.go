package sim

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// LaneRuleAt is LaneRule with a policy and a start of the caller's: the
// per-key limiter lane i of c applies to limit index limit under policy p: the registry row of the lane's chain kind with the lane's
// own settings (its variant's lane options and product section), exactly as
// a run builds it (Config.ruleOf, newDecider), its calendar placed from
// start (the wall-clock instant of t=0; the zero Time is c's Start). A limit
// index past c.Limits takes the settings of a limit without any of its own
// (nginx's Default zone, say). It is how replay runs a scenario's product
// lanes (a --vary value's policy, the log's origin as t=0). It fails for a lane with no per-key limiter and for a policy the
// algorithm rejects. A bounded key table (LaneOptions.Keys) is not part of
// the rule: a run applies it around the lane's table.
func (c *Config) LaneRuleAt(i, limit int, p algorithms.Policy, start time.Time) (KeyRule, error) {
	if i < 0 || i >= len(c.LanesRun()) {
		return nil, fmt.Errorf("no lane %d", i)
	}
	lc := *c
	lc.Lanes = c.LanesRun()
	if !start.IsZero() {
		lc.Start = start
	}
	kind, ok := lc.chainKind(lc.Lanes[i])
	if !ok {
		return nil, fmt.Errorf("lane %s has no per-key limiter", lc.LaneName(i))
	}
	d, err := newDecider(lc.laneConfig(i).ruleOf(kind, limit), p, 0)
	if err != nil {
		return nil, err
	}
	return d.(interface{ keyRule() KeyRule }).keyRule(), nil
}

// LaneKeys is the bounded key table of lane i of c (LaneOptions.Keys): 0
// when the lane keeps every key.
func (c *Config) LaneKeys(i int) int {
	if i >= len(c.Variants) {
		return 0
	}
	return c.Variants[i].Options.Keys
}

// PlacedState is a KeyState a topology can place: charged whether it fits
// or not (a synced limit's store, charged with each replica's admissions),
// and copied (a replica pulling the store's state). Every KeyRule's states
// are PlacedStates.
type PlacedState interface {
	KeyState
	// Charge counts cost at now whether it fits or not (algorithms.Charging).
	Charge(now time.Duration, cost int64)
	// CopyFrom makes the state an independent copy of src, a state of the same rule.
	CopyFrom(src PlacedState)
}

// Charge is the algorithm's Charge on this state; every registry row's
// algorithm has one (rateOf), else it panics, as dense.charge does.
func (b *boundState[S]) Charge(now time.Duration, cost int64) {
	c, ok := b.alg.(algorithms.Charging[S])
	if !ok {
		panic(fmt.Sprintf("sim: boundState.Charge: %T has no Charge", b.alg))
	}
	c.Charge(&b.s, now, cost)
}

// CopyFrom copies src's state as dense.copyFrom does (a state with a
// CopyFrom of its own, a sliding log's, copies its entries).
func (b *boundState[S]) CopyFrom(src PlacedState) {
	from := &src.(*boundState[S]).s
	if c, ok := any(&b.s).(interface{ CopyFrom(*S) }); ok {
		c.CopyFrom(from)
		return
	}
	b.s = *from
}

// DividedPolicy is replica j's policy of p divided over n replicas in a lane
// of kind (a local limit with LocalDivided): the limit, and the burst of a
// limiter that has one apart from its limit, each DividedShare; ok is false
// for a share of nothing, a replica that refuses everything. It is the run's
// own rule (replicaTables.share), not a copy of it.
func DividedPolicy(kind LaneKind, p algorithms.Policy, n, j int) (algorithms.Policy, bool) {
	rt := replicaTables{rule: plainRule(kind), divided: true, policy: p}
	return rt.share(n, j)
}

// LanePolicy is the policy lane i of c applies to limit index limit: its
// override's (a variant's limits, or a product section's policy of the first
// limit), else the limit's.
func (c *Config) LanePolicy(i, limit int) algorithms.Policy { return c.policy(i, limit) }
