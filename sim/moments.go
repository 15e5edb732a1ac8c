package sim

import (
	"container/heap"
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

// laterAdd is an admission to add to a tracker once time reaches at.
type laterAdd struct {
	at   time.Duration
	seq  uint64
	key  int32
	cost int64
	to   *window.Tracker
}

// laterAdds holds the admissions counted at an instant still ahead (a late
// admission's release slot): a tracker takes admissions in time order, so they
// wait here until catchUp reaches their instant. Ties keep their order.
type laterAdds struct {
	h   laterHeap
	seq uint64
}

type laterHeap []laterAdd

func (h laterHeap) Len() int { return len(h) }
func (h laterHeap) Less(i, j int) bool {
	return h[i].at < h[j].at || h[i].at == h[j].at && h[i].seq < h[j].seq
}
func (h laterHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *laterHeap) Push(x any)   { *h = append(*h, x.(laterAdd)) }
func (h *laterHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// add adds an admission to p at at, now or (when at is after now) once catchUp reaches at.
func (q *laterAdds) add(p *window.Tracker, key int32, now, at time.Duration, cost int64) {
	if at <= now {
		q.catchUp(now)
		p.Add(key, at, cost)
		return
	}
	q.seq++
	heap.Push(&q.h, laterAdd{at: at, seq: q.seq, key: key, cost: cost, to: p})
}

// catchUp adds every held admission whose instant is at or before now, in time
// order. It is called on every decision: the common case, nothing due, inlines.
func (q *laterAdds) catchUp(now time.Duration) {
	if len(q.h) > 0 && q.h[0].at <= now {
		q.drain(now)
	}
}

func (q *laterAdds) drain(now time.Duration) {
	for len(q.h) > 0 && q.h[0].at <= now {
		a := heap.Pop(&q.h).(laterAdd)
		a.to.Add(a.key, a.at, a.cost)
	}
}

// arrival is an admission as it reaches the backend, at an instant.
type arrival struct {
	at   time.Duration
	key  int32
	cost int64
}

// exactLimit is one exact limiter of a limit's algorithm and policy, one state
// for the whole fleet, fed the attempts the fleet's limit decided, each at the
// instant the limit decided it: what the limit would have admitted with no
// replicas, no store and no sync (LimitTopology.Exact). A rule push starts it
// afresh, as it does the limit.
type exactLimit struct {
	kind   LaneKind
	keys   int
	policy algorithms.Policy
	table  stateTable
	peak   window.Tracker
}

func newExactLimit(kind LaneKind, p algorithms.Policy, keys int) (exactLimit, error) {
	t, err := newTable(kind, p, keys)
	return exactLimit{kind: kind, keys: keys, policy: p, table: t, peak: window.NewUntimed(p.Window, p.Limit, keys)}, err
}

// exactDecide has every limit's exact twin decide the attempt of request r that
// the chain just decided at now (answer, and the refusing limit when refused).
// A twin decides the attempts its limit decided: all when the chain admitted,
// the refusing limit's own, and in a sequential chain those the limits before
// the refusing one decided. It counts an admission when it admits an attempt no
// other limit refused, at the instant the chain's answer would release it.
func (f *fleet) exactDecide(r int32, answer algorithms.Decision, quota int, refused bool) {
	l := f.lane
	now := l.eng.Now()
	req := &l.reqs.all[r]
	c := req.client
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
				l.m.later.add(&ex.peak, k, now, later(now, answer.Delay), req.cost)
			}
			continue
		}
		if refused && quota != i && (allOrNothing || i > quota) {
			continue
		}
		if p := l.policies[i]; p != ex.policy {
			fresh, err := newExactLimit(ex.kind, p, ex.keys)
			mustBuild(err)
			fresh.peak = ex.peak // restarted at the push (restartWindows)
			*ex = fresh
		}
		d := ex.table.decide(k, now, req.cost)
		if d.Verdict == algorithms.Refuse || refused && quota != i {
			continue
		}
		delay := d.Delay
		if !refused {
			delay = max(delay, answer.Delay)
		}
		l.m.later.add(&ex.peak, k, now, later(now, delay), req.cost)
	}
}

// countDecided counts, at the store's decision instant now, the limit's view
// of the attempt of request r the chain just decided: the lane's peak and
// cross-check, the fleet's and the replica's peaks (at the release slot when
// late). The answer acted on when it is back does not count them again.
func (f *fleet) countDecided(r int32, answer algorithms.Decision, refused bool) {
	l := f.lane
	now := l.eng.Now()
	req := &l.reqs.all[r]
	c := req.client
	call := &f.calls[r]
	call.counted = true
	if !l.pop.skips(0, c) {
		l.m.decidedAt(l.pop.keyOf[0][c], now, req.cost, !refused, answer.Delay, call.back)
	}
	if refused {
		return
	}
	at := later(now, answer.Delay)
	rep := f.replicaOf[r]
	for i := range f.limits {
		if l.pop.skips(i, c) {
			continue
		}
		k := l.pop.keyOf[i][c]
		l.m.later.add(&f.fleetPeak[i], k, now, at, req.cost)
		l.m.later.add(&f.repPeak[i], rep*int32(l.pop.keys[i].len())+k, now, at, req.cost)
	}
}
