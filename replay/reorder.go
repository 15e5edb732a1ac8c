package replay

import (
	"fmt"
	"math"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// event is one request ready to replay: its time in ns since the Unix epoch, its
// line order (ties keep the log's order), and its key under each limit.
type event struct {
	at   int64
	seq  int64
	keys []int32
}

// MaxReorder and MaxReorderBytes bound the reorder buffer: it holds at most
// MaxReorder lines, and fewer when they would take more than MaxReorderBytes
// (a line takes 40 bytes plus 4 per limit: 1 048 576 lines up to six limits,
// 838 860 with ten). When a line would make it hold more, the earliest is
// replayed at once, however little time the log has moved on (lines that
// share an instant stream through), and a line behind it is counted as behind
// the full buffer.
const (
	MaxReorder      = 1 << 20
	MaxReorderBytes = 64 << 20
)

// reorderLines is the bound on the lines held with limits limits.
func reorderLines(limits int) int { return min(MaxReorder, MaxReorderBytes/(40+4*limits)) }

// reorder puts events back in time order: an event at most late ns behind the
// latest seen is placed; one further behind is refused by push. Events in
// order (the common case) wait in a FIFO, the others in a min-heap on (at, seq);
// pop takes the earlier of the two heads. At most max events wait (0: no bound).
type reorder struct {
	fifo     ring // in (at, seq) order: each pushed at or after the latest
	late     int64
	max      int
	high     int // the most events held at once
	maxSeen  int64
	released int64 // the time of the last event released
	started  bool
	seen     bool
	heap     []event
}

// placement is how an event's time places it: in the buffer, more than late
// behind the latest, or behind an event the full buffer has let go.
type placement uint8

const (
	placed placement = iota
	tooLate
	behindFull
)

// place says whether an event at at can be placed now.
func (q *reorder) place(at int64) placement {
	switch {
	case q.seen && at < q.behind():
		return tooLate
	case q.started && at < q.released:
		return behindFull
	}
	return placed
}

// behind is the earliest time still placed: late before the latest seen,
// saturated (a --late longer than the log places every line).
func (q *reorder) behind() int64 {
	if q.maxSeen < math.MinInt64+q.late {
		return math.MinInt64
	}
	return q.maxSeen - q.late
}

// held is how many events wait.
func (q *reorder) held() int { return q.fifo.n + len(q.heap) }

// push adds e; ok is false when e cannot be placed (see place).
func (q *reorder) push(e event) bool {
	if q.place(e.at) != placed {
		return false
	}
	if !q.seen || e.at >= q.maxSeen {
		q.seen = true
		q.maxSeen = e.at
		q.fifo.push(e)
	} else {
		q.heap = append(q.heap, e)
		q.up(len(q.heap) - 1)
	}
	q.high = max(q.high, q.held())
	return true
}

// advance makes at the latest time seen if it is later, so that pop releases
// what a push of an event at at would let it.
func (q *reorder) advance(at int64) {
	if !q.seen || at > q.maxSeen {
		q.seen, q.maxSeen = true, at
	}
}

// pop releases the earliest event if it can no longer be overtaken, or if the
// buffer is full (it then holds fewer than max), or if all is true: the log
// has ended.
func (q *reorder) pop(all bool) (event, bool) {
	all = all || q.max > 0 && q.held() >= q.max
	if q.fifo.n > 0 && (len(q.heap) == 0 || less(q.fifo.first(), q.heap[0])) {
		if !all && q.fifo.first().at > q.behind() {
			return event{}, false
		}
		e := q.fifo.pop()
		q.released, q.started = e.at, true
		return e, true
	}
	if len(q.heap) == 0 || !all && q.heap[0].at > q.behind() {
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

// ring is a FIFO of events in a ring of a power-of-two size, grown by
// doubling: its memory follows the most events it held at once.
type ring struct {
	buf      []event
	start, n int
}

func (r *ring) push(e event) {
	if r.n == len(r.buf) {
		buf := make([]event, max(16, 2*len(r.buf)))
		k := copy(buf, r.buf[r.start:])
		copy(buf[k:], r.buf[:r.start])
		r.buf, r.start = buf, 0
	}
	r.buf[(r.start+r.n)&(len(r.buf)-1)] = e
	r.n++
}

func (r *ring) first() event { return r.buf[r.start] }

func (r *ring) pop() event {
	e := r.buf[r.start]
	r.buf[r.start] = event{}
	r.start = (r.start + 1) & (len(r.buf) - 1)
	r.n--
	return e
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

// MaxSpan is the longest a replayed log may cover, from the hour of its first
// request to its latest: sim.MaxTime, as for a run, so that no lane's time
// arithmetic can overflow. A line that would make it longer is a bad line.
const MaxSpan = sim.MaxTime

// beyond says why a line at at would make the log cover more than MaxSpan,
// given the earliest request replayed so far (first, when any is): "" when it
// would not.
func (q *reorder) beyond(at, first int64, any bool) string {
	if !any {
		return ""
	}
	lo, hi := min(first, at), max(q.maxSeen, at)
	if span(floorHour(lo), hi) <= uint64(MaxSpan) {
		return ""
	}
	if at >= first {
		return fmt.Sprintf("time %s is more than %s after the log's first hour, %s", utc(at), years(MaxSpan), utc(floorHour(first)))
	}
	return fmt.Sprintf("time %s is more than %s before the log's latest line, %s", utc(at), years(MaxSpan), utc(hi))
}

// span is b−a for a ≤ b, exact for any two int64s.
func span(a, b int64) uint64 { return uint64(b) - uint64(a) }

// floorHour is the start of the UTC hour at falls in, ns since the epoch (also
// before 1970, where at%hour is negative).
func floorHour(at int64) int64 {
	m := at % int64(time.Hour)
	if m < 0 {
		m += int64(time.Hour)
	}
	return at - m
}

func utc(at int64) string { return time.Unix(0, at).UTC().Format(time.RFC3339Nano) }

// years writes d, a whole number of 365-day years, as "100 years".
func years(d time.Duration) string { return fmt.Sprintf("%d years", d/(365*24*time.Hour)) }
