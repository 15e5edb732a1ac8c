package sim

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/window"
)

// noRule is a lane's ruleAt when no rule push is left to apply.
const noRule = time.Duration(math.MaxInt64)

// ChangeRule pushes a new rule for one limit of the chain at virtual time
// ch.At, which must not be before Now: the same path as the scenario's Rules
// (it is appended to Config().Rules), so a live view's change and a scheduled
// one decide alike. Changes at one instant apply in the order pushed, before
// any request at that instant. It reports a FieldErrors naming "rules" when the
// change is invalid and then changes nothing.
func (s *Simulation) ChangeRule(ch RuleChange) error {
	var ck checker
	if ch.At < s.now {
		ck.add("rules.at", "%v is before the simulation's time %v", ch.At, s.now)
	}
	checkRule(&ck, "rules", ch, &s.cfg)
	if len(ck.errs) > 0 {
		return ck.errs
	}
	at := sortedInsert(&s.cfg.Rules, ch)
	for _, l := range s.lanes {
		l.cfg.Rules = s.cfg.Rules // a lane with settings of its own holds a copy of the Config
		if at < l.nextRule {
			panic("sim.Simulation.ChangeRule: a rule inserted before one already applied")
		}
		l.ruleAt = s.cfg.ruleAt(l.nextRule)
	}
	return nil
}

// Rule is limit i of the chain as the first lane applies it at Now: its policy
// (the chain's, or what the last push set) and whether it is a shadow limit.
func (s *Simulation) Rule(i int) Limit {
	lim := s.cfg.Limits[i]
	for _, ch := range s.cfg.Rules {
		if ch.At > s.now || ch.Limit != i {
			continue
		}
		if ch.Policy != (algorithms.Policy{}) {
			lim.Policy = ch.Policy
		}
		lim.Shadow = ch.Shadow
	}
	return lim
}

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
			if _, err := newDecider(kind, ch.Policy, 0); err != nil {
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

// applyRule applies the lane's next rule push.
func (l *lane) applyRule() {
	ch := l.cfg.Rules[l.nextRule]
	l.nextRule++
	l.ruleAt = l.cfg.ruleAt(l.nextRule)
	if l.chain == nil {
		return
	}
	l.shadow[ch.Limit], l.limits[ch.Limit].Shadow = ch.Shadow, ch.Shadow
	l.setQuickPath()
	if ch.Policy == (algorithms.Policy{}) || ch.Policy == l.policies[ch.Limit] {
		return
	}
	l.restartWindows(ch)
	if l.fleet != nil {
		l.fleet.limits[ch.Limit].setPolicy(ch.Policy)
		l.policies[ch.Limit], l.limits[ch.Limit].Policy = ch.Policy, ch.Policy
		return
	}
	kind, _ := l.cfg.chainKind(l.kind)
	d, err := newDecider(kind, ch.Policy, l.pop.keys[ch.Limit].len())
	if err != nil {
		panic(fmt.Sprintf("sim.lane.applyRule: a checked rule failed: %v", err))
	}
	l.chain[ch.Limit], l.policies[ch.Limit], l.limits[ch.Limit].Policy = d, ch.Policy, ch.Policy
	l.setQuickPath()
}

// restartWindows starts afresh, at push ch, every window that measures its
// limit against the limit (window.Tracker.Restart): the lane's peak and
// cross-check for the first limit, and in a topology the fleet's, the
// replicas', the backend's and the exact twin's. The push starts the limit's
// keys afresh; its windows follow.
func (l *lane) restartWindows(ch RuleChange) {
	p := ch.Policy
	if ch.Limit == 0 {
		l.m.peak.Restart(ch.At, p.Window, p.Limit)
		l.kern.batched = l.kern.fits && l.batchable()
	}
	if f := l.fleet; f != nil {
		i := ch.Limit
		for _, t := range []*window.Tracker{&f.fleetPeak[i], &f.repPeak[i], &f.arrived[i], &f.exact[i].peak} {
			t.Restart(ch.At, p.Window, p.Limit)
		}
	}
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

// ShadowDuring reports whether limit i of the chain was a shadow (deciding, but
// refusing nothing) at any instant of [from, to): as configured at the start,
// then as each rule push up to the time measured left it.
func (r *Result) ShadowDuring(i int, from, to time.Duration) bool {
	if i < 0 || i >= len(r.Limits) {
		return false
	}
	shadow := r.Limits[i].Shadow
	for _, rc := range r.Rules {
		if rc.Limit != i {
			continue
		}
		if rc.At >= to {
			break
		}
		if rc.At > from && shadow {
			return true
		}
		shadow = rc.Shadow
	}
	return shadow
}
