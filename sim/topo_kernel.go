package sim

import (
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// A fleet whose limits never call the store on an attempt (local and synced
// ones: no shared limit) and that no health check takes replicas out of takes
// the kernel (fast_kernel.go) as a lane without a topology does, when its one
// limit gives its verdict alone (quickPath). Each request is routed before
// its decision (kernelRoute), as begin routes it, and the fleet counts the
// decision after it (kernelDecided), as decideNow and admitted count it: the
// exact twin's decision, and the admission in every window of the fleet.
// Rule pushes, autoscaler steps and syncs are events the general loop
// handles, as it handles every event but an arrival.

// fitsKernel reports whether fleet f lets its lane take the kernel: no shared
// limit but in a store the kernel calls (fitsStoreKernel), no health check, and limits whose algorithms never delay (the kernel
// hands a delay to the general path, which would route it again).
func (f *fleet) fitsKernel() bool {
	if fleetKernelOff || f.shared && !f.fitsStoreKernel() || f.health != nil {
		return false
	}
	for i := range f.limits {
		if f.lane.cfg.ruleOf(f.lane.kind, i).kind.Info().fast&fastDelays != 0 {
			return false
		}
	}
	return true
}

// kernelRoute routes the kernel's request of client c: the replica deciding
// it, in the placed limits' context.
func (f *fleet) kernelRoute(c int32) {
	f.ctx.replica, f.ctx.class = f.pick(c), f.lane.pop.groupOf[c]
	f.ctx.storeErr, f.ctx.racy, f.ctx.cached, f.ctx.probe = false, false, false, false
}

// kernelDecided counts the kernel's decision on a request of client c (key
// of the one limit, cost) at now: the exact twin decides it, and an admission
// is counted in the fleet's windows at once (a limit of the kernel never
// delays).
func (f *fleet) kernelDecided(run *kernelRun, c, key int32, now time.Duration, cost int64, admitted bool) {
	l := f.lane
	// exactDecideFor for a chain of one limit counting every client, no shadow.
	ex := &f.exact[0]
	if l.policies[0] != ex.policy {
		l.flushTwin(run)
		f.exactDecideFor(c, cost, algorithms.Decision{}, 0, !admitted)
	} else {
		ex.kernelDecide(run, l, key, now, cost)
	}
	if !admitted {
		return
	}
	// admittedBy, where only the replica's window is kept.
	if !f.same.lane || !f.same.arrived {
		f.admittedBy(c, f.ctx.replica, false, now, cost)
	} else if !f.same.replica {
		l.m.later.catchUp(now)
		f.repPeak[0].Add(f.ctx.replica*int32(l.pop.keys[0].len())+key, now, cost)
	}
}

// kernelDecide is the twin's decision on the kernel's attempt (key, cost) at
// now, its admission counted in its window (twinAdmitted): by its verdict
// and refusal in one computation where its algorithm gives them
// (algorithms.Answerer; a refusal changes what Decide's would and builds no
// Decision), else by its verdict alone, else by Decide.
func (ex *exactLimit) kernelDecide(run *kernelRun, l *lane, key int32, now time.Duration, cost int64) {
	if ex.answer != nil {
		admitted, refused := ex.answer.verdict(key, now, cost)
		if admitted {
			l.twinAdmitted(run, ex, key, now, cost)
		}
		if admitted || refused {
			return
		}
	} else if ex.quick != nil && ex.quick.admit(key, now, cost) {
		l.twinAdmitted(run, ex, key, now, cost)
		return
	}
	l.flushTwin(run)
	if d := ex.table.decide(key, now, cost); d.Verdict != algorithms.Refuse {
		l.m.later.add(&ex.peak, key, now, later(now, d.Delay), cost)
	}
}

// twinAdmitted counts the exact twin's admission at now in its window: in
// run's batch of them (flushTwin) where the lane batches its decisions (one
// key, one cost) and no admission waits to be counted later (laterAdds: its
// window must take them in time order), else at once.
func (l *lane) twinAdmitted(run *kernelRun, ex *exactLimit, key int32, now time.Duration, cost int64) {
	if l.kern.batched && !twinBatchOff && len(l.m.later.h) == 0 {
		run.twin[run.twins], run.twinCost = now, cost
		if run.twins++; run.twins == len(run.twin) {
			l.flushTwin(run)
		}
		return
	}
	l.flushTwin(run)
	l.m.later.catchUp(now)
	ex.peak.Add(key, now, cost)
}

// flushTwin counts the twin's admissions of run's batch in its window.
func (l *lane) flushTwin(run *kernelRun) {
	if run.twins > 0 {
		l.fleet.exact[0].peak.AddRun(0, run.twin[:run.twins], run.twinCost) // a batched lane has one key
		run.twins = 0
	}
}

// twinAnswer is a table's verdict and refusal in one computation
// (algorithms.Answerer): admitted or refused as Decide would, the state left
// as Decide leaves it; neither, with nothing changed, where Decide must answer.
type twinAnswer interface {
	verdict(key int32, now time.Duration, cost int64) (admitted, refused bool)
}

// answerTable is a table that may give a twinAnswer.
type answerTable interface {
	answerer() twinAnswer
}

// answerer is d's twinAnswer, or nil when its algorithm is no Answerer.
func (d *dense[S]) answerer() twinAnswer {
	a, ok := d.alg.(algorithms.Answerer[S])
	if !ok {
		return nil
	}
	return denseAnswer[S]{d, a}
}

// denseAnswer is a dense table's twinAnswer.
type denseAnswer[S any] struct {
	d   *dense[S]
	ans algorithms.Answerer[S]
}

func (a denseAnswer[S]) verdict(key int32, now time.Duration, cost int64) (admitted, refused bool) {
	_, admitted, refused = a.ans.Answer(&a.d.states[key], now, cost)
	return admitted, refused
}

// admits reports whether the limit may take the kernel's verdict-alone path:
// its lane's fleet fits the kernel and its algorithm admits by its verdict.
func (ll *localLimit) admits() bool { return ll.reps.admits() }

// admit is the replica's verdict alone (algorithms.Admitter); false, with
// nothing changed, where a held division binds too (decide then answers).
func (ll *localLimit) admit(key int32, now time.Duration, cost int64) bool {
	return ll.reps.admit(key, now, cost)
}

func (rt *replicaTables) admits() bool {
	return rt.f.fitsKernel() && rt.rule.kind.Info().fast&fastAdmits != 0
}

func (rt *replicaTables) admit(key int32, now time.Duration, cost int64) bool {
	if len(rt.held) > 0 {
		return false
	}
	q := rt.quick[rt.f.ctx.replica]
	return q != nil && q.admit(key, now, cost)
}

// refusal is the replica's refusal alone where its table tells one
// (algorithms.Refuser; state left as decide leaves it on a refusal): the
// kernel asks it once the first refusal's headers are kept. Refused false,
// nothing changed, where a held division binds too (decide then answers).
func (ll *localLimit) refusal(key int32, now time.Duration, cost int64) (time.Duration, bool) {
	if len(ll.reps.held) > 0 {
		return 0, false
	}
	return refusalOf(ll.reps.refuse[ll.reps.f.ctx.replica], key, now, cost)
}

// refusal is refusal (localLimit's) on the replica's view, pulled as decide
// pulls it; a refusal pushes nothing, as decide's.
func (sy *syncedLimit) refusal(key int32, now time.Duration, cost int64) (time.Duration, bool) {
	r := sy.f.ctx.replica
	sy.pull(r, key)
	return refusalOf(sy.refuse[r], key, now, cost)
}

// refusalOf is q's refusal alone where there is q (refuserOf), else none.
func refusalOf(q refuser, key int32, now time.Duration, cost int64) (time.Duration, bool) {
	if q != nil {
		return q.refusal(key, now, cost)
	}
	return 0, false
}

// refuserOf is t when it tells a refusal alone (refuser), else nil.
func refuserOf(t stateTable) refuser {
	q, _ := t.(refuser)
	return q
}

func (sy *syncedLimit) admits() bool {
	return sy.f.fitsKernel() && sy.rule.kind.Info().fast&fastAdmits != 0
}

// admit is the replica's verdict alone on its view (pulled as decide pulls
// it), the admission pushed as decide pushes it.
func (sy *syncedLimit) admit(key int32, now time.Duration, cost int64) bool {
	r := sy.f.ctx.replica
	sy.pull(r, key)
	if q := sy.quick[r]; q == nil || !q.admit(key, now, cost) {
		return false
	}
	sy.pushes = append(sy.pushes, push{at: now, cost: cost, key: key})
	return true
}
