package replay

// event is one request ready to replay: its time in ns since the Unix epoch, its
// line order (ties keep the log's order), and its key under each limit.
type event struct {
	at   int64
	seq  int64
	keys []int32
}

// reorder puts events back in time order: an event at most late ns behind the
// latest seen is placed; one further behind is refused by push. Events in
// order (the common case) wait in a FIFO, the others in a min-heap on (at, seq);
// pop takes the earlier of the two heads.
type reorder struct {
	fifo     []event // in (at, seq) order: each pushed at or after the latest
	head     int
	late     int64
	maxSeen  int64
	released int64 // the time of the last event released
	started  bool
	seen     bool
	heap     []event
}

// push adds e; ok is false when e is too late to be placed.
func (q *reorder) push(e event) bool {
	if q.seen && e.at < q.maxSeen-q.late || q.started && e.at < q.released {
		return false
	}
	if !q.seen || e.at >= q.maxSeen {
		q.seen = true
		q.maxSeen = e.at
		q.fifo = append(q.fifo, e)
		return true
	}
	q.heap = append(q.heap, e)
	q.up(len(q.heap) - 1)
	return true
}

// pop releases the earliest event if it can no longer be overtaken (or if all
// is true: the log has ended).
// advance makes at the latest time seen if it is later, so that pop releases
// what a push of an event at at would let it.
func (q *reorder) advance(at int64) {
	if !q.seen || at > q.maxSeen {
		q.seen, q.maxSeen = true, at
	}
}

func (q *reorder) pop(all bool) (event, bool) {
	if q.head < len(q.fifo) && (len(q.heap) == 0 || less(q.fifo[q.head], q.heap[0])) {
		e := q.fifo[q.head]
		if !all && e.at > q.maxSeen-q.late {
			return event{}, false
		}
		q.fifo[q.head] = event{}
		q.head++
		if q.head == len(q.fifo) || q.head >= 4096 && 2*q.head >= len(q.fifo) {
			q.fifo = q.fifo[:copy(q.fifo, q.fifo[q.head:])]
			q.head = 0
		}
		q.released, q.started = e.at, true
		return e, true
	}
	if len(q.heap) == 0 || !all && q.heap[0].at > q.maxSeen-q.late {
		return event{}, false
	}
	e := q.heap[0]
	last := len(q.heap) - 1
	q.heap[0] = q.heap[last]
	q.heap[last] = event{}
	q.heap = q.heap[:last]
	q.down(0)
	q.released, q.started = e.at, true
	return e, true
}

func less(a, b event) bool { return a.at < b.at || a.at == b.at && a.seq < b.seq }

func (q *reorder) up(i int) {
	h := q.heap
	for i > 0 {
		p := (i - 1) / 2
		if !less(h[i], h[p]) {
			return
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (q *reorder) down(i int) {
	h := q.heap
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		m := l
		if r := l + 1; r < len(h) && less(h[r], h[l]) {
			m = r
		}
		if !less(h[m], h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
