package sim

import (
	"container/heap"
	"time"

	"github.com/rlsim/rlsim/sim/window"
)

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
