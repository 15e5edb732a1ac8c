package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/window"
)

// The moment an admission is counted. A limit's own figures (the lane's Peak,
// TimeOverLimit and cross-check, a topology's Fleet and Replica peaks and the
// exact twin's) count an admission at the instant the limit decided it: the
// store's decision instant when a store call decides it, plus its delay when
// it is admitted late. What the backend saw (LimitTopology.Arrived) counts it
// when it reached the backend: after the store's answer came back to the
// replica, and the delay. Without a store round trip the two instants are one.

// exactLimit is one exact limiter of a limit's algorithm and policy, one state
// for the whole fleet, fed the attempts the fleet's limit decided, each at the
// instant the limit decided it: what the limit would have admitted with no
// replicas, no store and no sync (LimitTopology.Exact). A rule push starts it
// afresh, as it does the limit.
type exactLimit struct {
	rule   laneRule
	keys   int
	policy algorithms.Policy
	table  stateTable
	quick  admitter   // table, when it gives its verdict alone (and twinVerdictOff is not set); else nil
	answer twinAnswer // table's verdict and refusal, for the kernel (twinAnswerOff and twinVerdictOff not set); else nil
	peak   window.Tracker
}

func newExactLimit(rule laneRule, p algorithms.Policy, keys int) (exactLimit, error) {
	t, err := newTable(rule, p, keys)
	ex := exactLimit{rule: rule, keys: keys, policy: p, table: t, peak: untimedWindow(p.Window, p.Limit, keys)}
	if q, ok := t.(admitter); ok && q.admits() && !twinVerdictOff {
		ex.quick = q
		if a, ok := t.(answerTable); ok && !twinAnswerOff {
			ex.answer = a.answerer()
		}
	}
	return ex, err
}

// exactDecide has every limit's exact twin decide the attempt of request r that
// the chain just decided at now (answer, and the refusing limit when refused).
// A twin decides the attempts its limit decided: all when the chain admitted,
// the refusing limit's own, and in a sequential chain those the limits before
// the refusing one decided. It counts an admission when it admits an attempt no
// other limit refused, at the instant the chain's answer would release it.
func (f *fleet) exactDecide(r int32, answer algorithms.Decision, quota int, refused bool) {
	req := &f.lane.reqs.all[r]
	f.exactDecideFor(req.client, req.cost, answer, quota, refused)
}

// exactDecideFor is exactDecide for an attempt of client c and cost.
func (f *fleet) exactDecideFor(c int32, cost int64, answer algorithms.Decision, quota int, refused bool) {
	if f.same.exact {
		return // the twin decides as the store (twinIsStore): its window is Fleet
	}
	l := f.lane
	now := l.eng.Now()
	allOrNothing := len(l.chain) > 1 && l.cfg.Chain == ChainAllOrNothing
	for i := range f.exact {
		if l.pop.skips(i, c) {
			continue
		}
		ex := &f.exact[i]
		k := l.pop.keyOf[i][c]
		if l.shadow[i] {
			// A shadow limit refuses nothing: one exact shadow limiter admits what the fleet did.
			if !refused {
				l.m.later.add(&ex.peak, k, now, later(now, answer.Delay), cost)
			}
			continue
		}
		if refused && quota != i && (allOrNothing || i > quota) {
			continue
		}
		if p := l.policies[i]; p != ex.policy {
			fresh, err := newExactLimit(ex.rule, p, ex.keys)
			mustBuild(err)
			fresh.peak = ex.peak // restarted at the push (restartWindows)
			*ex = fresh
		}
		d := ex.decide(k, now, cost)
		if d.Verdict == algorithms.Refuse || refused && quota != i {
			continue
		}
		delay := d.Delay
		if !refused {
			delay = max(delay, answer.Delay)
		}
		l.m.later.add(&ex.peak, k, now, later(now, delay), cost)
	}
}

// decide is the twin's answer: its verdict alone where that admits at once
// (algorithms.Admitter), else its Decision.
func (ex *exactLimit) decide(k int32, now time.Duration, cost int64) algorithms.Decision {
	if ex.quick != nil && ex.quick.admit(k, now, cost) {
		return algorithms.Decision{}
	}
	return ex.table.decide(k, now, cost)
}

// countDecided counts, at the store's decision instant now, the limit's view
// of the attempt of request r the chain just decided: the lane's peak and
// cross-check, the fleet's and the replica's peaks (at the release slot when
// late). The answer acted on when it is back does not count them again.
func (f *fleet) countDecided(r int32, delay time.Duration, refused bool) {
	l := f.lane
	now := l.eng.Now()
	req := &l.reqs.all[r]
	c := req.client
	call := &f.calls[r]
	call.counted, call.peakCounted = true, true
	if !l.pop.skips(0, c) {
		l.m.decidedAt(l.pop.keyOf[0][c], now, req.cost, !refused, delay)
	}
	if !refused {
		f.decidedIn(c, f.replicaOf[r], now, delay, req.cost)
	}
}

// decidedIn counts, at the store's decision instant now, an admission of
// client c's attempt of cost through replica rep, released delay later, in
// the fleet's and the replica's peaks of every limit counting c.
func (f *fleet) decidedIn(c, rep int32, now, delay time.Duration, cost int64) {
	l := f.lane
	at := later(now, delay)
	for i := range f.limits {
		if l.pop.skips(i, c) {
			continue
		}
		k := l.pop.keyOf[i][c]
		if i > 0 || !f.same.lane {
			l.m.later.add(&f.fleetPeak[i], k, now, at, cost)
		}
		if !f.same.replica {
			l.m.later.add(&f.repPeak[i], rep*int32(l.pop.keys[i].len())+k, now, at, cost)
		}
	}
}

// takePeak reports whether the lane's peak counted request r's admission when
// the store decided it, and forgets it: the admission reaching the backend
// is then not counted again.
func (f *fleet) takePeak(r int32) bool {
	call := &f.calls[r]
	counted := call.peakCounted
	call.peakCounted = false
	return counted
}
