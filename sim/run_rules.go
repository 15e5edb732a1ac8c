package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

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
