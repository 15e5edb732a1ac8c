package sim

import "github.com/rlsim/rlsim/algorithms"

// The sliding-log cross-check (metrics.slidingLogCheck) replays every lane's
// decisions through an exact sliding log of the first limit. In the sliding-log
// lane, deciding alone with that very policy, the check cannot disagree: it
// would keep a second copy of the lane's log and compute every decision twice.
// There the check counts decisions and keeps no log until a rule push changes
// the lane, when it takes a copy of the lane's log and goes on by itself.

// ownCheckLog is the lane's log when lane l is its own cross-check, else nil.
func (l *lane) ownCheckLog() *dense[algorithms.SlidingLogState] {
	if len(l.chain) != 1 || l.shadow[0] || l.fleet != nil || l.gate != nil || l.conc != nil ||
		l.policies[0] != l.cfg.Limits[0].Policy {
		return nil
	}
	d, _ := l.chain[0].(*dense[algorithms.SlidingLogState])
	return d
}

// shareCheck makes the cross-check the lane's own decisions when they cannot
// differ.
func (l *lane) shareCheck() {
	if l.ownCheckLog() != nil {
		l.m.ownCheck, l.m.slogStates = true, nil
	}
}

// unshareCheck gives the cross-check a log of its own, a copy of the lane's,
// before a rule push can make them differ.
func (l *lane) unshareCheck() {
	if !l.m.ownCheck {
		return
	}
	own := l.ownCheckLog()
	if own == nil {
		panic("sim.lane.unshareCheck: the lane changed before its check was unshared")
	}
	l.m.ownCheck = false
	l.m.slogStates = make([]algorithms.SlidingLogState, len(own.states))
	for k := range own.states {
		l.m.slogStates[k].CopyFrom(&own.states[k])
	}
}
