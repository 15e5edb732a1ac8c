package sim

import (
	"math"
	"slices"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// sortedInsert puts ch after every change at or before ch.At and returns its index.
func sortedInsert(rules *[]RuleChange, ch RuleChange) int {
	i, _ := slices.BinarySearchFunc(*rules, ch.At+1, func(r RuleChange, t time.Duration) int {
		return cmpDuration(r.At, t)
	})
	*rules = slices.Insert(*rules, i, ch)
	return i
}

func cmpDuration(a, b time.Duration) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ruleAt is the instant of rule push i, or noRule past the last.
func (c *Config) ruleAt(i int) time.Duration {
	if i < len(c.Rules) {
		return c.Rules[i].At
	}
	return noRule
}

// checkRule reports what is wrong with a rule push in c.
func checkRule(ck *checker, path string, ch RuleChange, c *Config) {
	if ch.At < 0 {
		ck.add(path+".at", "must not be negative, got %v", ch.At)
	}
	if ch.Limit < 0 || ch.Limit >= len(c.Limits) {
		ck.add(path+".limit_index", "must name a limit of the chain (0 to %d), got %d", len(c.Limits)-1, ch.Limit)
		return
	}
	if ch.Policy == (algorithms.Policy{}) {
		return
	}
	before := len(ck.errs)
	checkPolicy(ck, path, ch.Policy)
	if len(ck.errs) > before {
		return
	}
	for i, lane := range c.Lanes {
		if kind, ok := c.laneConfig(i).chainKind(lane); ok {
			if _, err := newDecider(c.laneConfig(i).ruleOf(kind, ch.Limit), ch.Policy, 0); err != nil {
				ck.add(path, "in lane %v: %v", c.LaneName(i), err)
				return
			}
		}
	}
}

// chainKind is the lane whose per-key limiter lane applies to the chain; ok is
// false for a lane without a chain (a concurrency limiter).
func (c *Config) chainKind(lane LaneKind) (kind LaneKind, ok bool) {
	if !lane.known() {
		return 0, false
	}
	switch lane.Info().Class {
	case ConcurrencyLimiter:
		return 0, false
	case ClientGate:
		return c.Throttle.Server, true
	}
	return lane, true
}

// anyShadow reports whether some limit is a shadow limit at some time of the run.
func (c *Config) anyShadow() bool {
	for _, l := range c.Limits {
		if l.Shadow {
			return true
		}
	}
	for _, ch := range c.Rules {
		if ch.Shadow {
			return true
		}
	}
	return false
}

// noRule is a lane's ruleAt when no rule push is left to apply.
const noRule = time.Duration(math.MaxInt64)
