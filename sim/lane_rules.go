package sim

import (
	"fmt"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/window"
)

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
	d, err := newDecider(l.cfg.ruleOf(kind, ch.Limit), ch.Policy, l.pop.keys[ch.Limit].len())
	if err != nil {
		panic(fmt.Sprintf("sim.lane.applyRule: a checked rule failed: %v", err))
	}
	l.keepNearLimit(ch.Limit, l.chain[ch.Limit])
	l.chain[ch.Limit], l.policies[ch.Limit], l.limits[ch.Limit].Policy = l.bounded(d, ch.Limit, ch.Policy), ch.Policy, ch.Policy
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
