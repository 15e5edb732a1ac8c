package sim

import (
	"math"
	"time"
)

// eventKind says what an event does when its time comes.
type eventKind uint8

const (
	evArrival     eventKind = iota // a client's arrival component fires: a new request
	evAttempt                      // a request tries again
	evRelease                      // a delayed request leaves the leaky queue
	evComplete                     // the backend finishes a request
	evChange                       // the backend's capacity or service time changes
	evInject                       // a request a live view added (Simulation.Inject)
	evStudy                        // an event of a study outside sim (Queue)
	evStoreDecide                  // a request's store call reaches the store (topology)
	evStoreWrite                   // the write of a racy check reaches the store
	evStoreReply                   // a request's store call is answered, or times out
	evReplicas                     // the autoscaler changes the fleet's size
	evSync                         // a synced limit syncs with the store
)

// event is one scheduled happening. Events are ordered by (at, seq): ties at the
// same instant run in the order they were scheduled, so runs are reproducible.
// It is 24 bytes: the insertion sequence and the kind share one word, so the
// heap stays small enough for the cache with 100,000 events pending.
type event struct {
	at    time.Duration
	order uint64 // insertion sequence << 8 | kind
	a, b  int32  // what the kind needs: client and component, request, ...
}

func (e *event) kind() eventKind { return eventKind(e.order) }

func (e *event) before(o *event) bool {
	return e.at < o.at || (e.at == o.at && e.order < o.order)
}

// engine is a discrete-event queue on a virtual clock: a typed 4-ary min-heap with
// no allocation per event once it has grown to the number of pending events,
// beside a first-in first-out line for events scheduled in time order
// (scheduleInOrder), which need no heap: they pop as if they were in it.
type engine struct {
	now  time.Duration
	seq  uint64
	heap []event
	line eventLine
}

// eventLine is a queue of events in (at, order) order: line[head:] are pending.
type eventLine struct {
	events []event
	head   int
}

func (q *eventLine) empty() bool { return q.head == len(q.events) }

// scheduleInOrder is schedule for an event no earlier than the last one it
// scheduled still pending (a leaky bucket's releases of one key are): it joins
// the line, in O(1), or the heap when it would come before the line's last.
func (e *engine) scheduleInOrder(at time.Duration, kind eventKind, a, b int32) {
	q := &e.line
	if !q.empty() && at < q.events[len(q.events)-1].at {
		e.schedule(at, kind, a, b)
		return
	}
	if at < e.now {
		panic("sim.engine.scheduleInOrder: event in the past")
	}
	if q.empty() {
		q.events, q.head = q.events[:0], 0
	} else if q.head >= 64 && 2*q.head >= len(q.events) {
		n := copy(q.events, q.events[q.head:])
		q.events, q.head = q.events[:n], 0
	}
	e.seq++
	q.events = append(q.events, event{at: at, order: e.seq<<8 | uint64(kind), a: a, b: b})
}

// lineFirst reports whether the line's first event comes before the heap's.
func (e *engine) lineFirst() bool {
	q := &e.line
	return !q.empty() && (len(e.heap) == 0 || q.events[q.head].before(&e.heap[0]))
}

// schedule adds an event at virtual time at (never before now).
func (e *engine) schedule(at time.Duration, kind eventKind, a, b int32) {
	if at < e.now {
		panic("sim.engine.schedule: event in the past")
	}
	e.seq++
	e.heap = append(e.heap, event{at: at, order: e.seq<<8 | uint64(kind), a: a, b: b})
	e.up(len(e.heap) - 1)
}

// reserve takes the next n−1 sequence numbers after the event scheduled last,
// for the events that follow it at once (scheduleNext): as if they were
// scheduled now, without being pending yet.
func (e *engine) reserve(n int) {
	e.seq += uint64(n - 1)
}

// scheduleNext adds, for an event of a reserved run just taken off the queue,
// the next of the run: at the same time, for a of next, with the sequence
// number after prev's.
func (e *engine) scheduleNext(prev event, a int32) {
	e.heap = append(e.heap, event{at: prev.at, order: prev.order + 1<<8, a: a, b: prev.b})
	e.up(len(e.heap) - 1)
}

// pending is the number of scheduled events.
func (e *engine) pending() int { return len(e.heap) + len(e.line.events) - e.line.head }

// next is the time of the earliest event; ok is false when none is pending.
func (e *engine) next() (at time.Duration, ok bool) {
	if e.lineFirst() {
		return e.line.events[e.line.head].at, true
	}
	if len(e.heap) == 0 {
		return 0, false
	}
	return e.heap[0].at, true
}

// pop removes the earliest event and advances the clock to it.
func (e *engine) pop() event {
	var top event
	if e.lineFirst() {
		top = e.line.events[e.line.head]
		e.line.head++
	} else {
		h := e.heap
		top = h[0]
		last := len(h) - 1
		h[0] = h[last]
		e.heap = h[:last]
		if last > 0 {
			e.down(0)
		}
	}
	if top.at < e.now {
		panic("sim.engine.pop: an event before the clock: events were handled out of order")
	}
	e.now = top.at
	return top
}

// replaceTop replaces the earliest event, once handled, with a new one: pop then
// schedule in one sift. The new event gets the next insertion sequence, as
// schedule gives it; the clock must already be at the earliest event.
func (e *engine) replaceTop(at time.Duration, kind eventKind, a, b int32) {
	if at < e.now {
		panic("sim.engine.replaceTop: event in the past")
	}
	e.seq++
	e.heap[0] = event{at: at, order: e.seq<<8 | uint64(kind), a: a, b: b}
	if len(e.heap) > 1 {
		e.down(0)
	}
}

// replaceTopNext replaces the earliest event prev, once handled, with the
// next of its reserved run, for a (scheduleNext): pop then scheduleNext in one
// sift.
func (e *engine) replaceTopNext(prev event, a int32) {
	e.heap[0] = event{at: prev.at, order: prev.order + 1<<8, a: a, b: prev.b}
	if len(e.heap) > 1 {
		e.down(0)
	}
}

// nextAfterTop is the earliest time of a pending event other than the
// earliest, the largest Duration when there is none: the least of the top's
// children in the heap and of the line's first.
func (e *engine) nextAfterTop() time.Duration {
	next := time.Duration(math.MaxInt64)
	for i := 1; i <= 4 && i < len(e.heap); i++ {
		next = min(next, e.heap[i].at)
	}
	if !e.line.empty() {
		next = min(next, e.line.events[e.line.head].at)
	}
	return next
}

// dropTop removes the earliest event, once handled.
func (e *engine) dropTop() {
	last := len(e.heap) - 1
	e.heap[0] = e.heap[last]
	e.heap = e.heap[:last]
	if last > 0 {
		e.down(0)
	}
}

func (e *engine) up(i int) {
	h := e.heap
	x := h[i]
	for i > 0 {
		p := (i - 1) / 4
		if !x.before(&h[p]) {
			break
		}
		h[i] = h[p]
		i = p
	}
	h[i] = x
}

func (e *engine) down(i int) {
	h := e.heap
	n := len(h)
	x := h[i]
	for {
		c := 4*i + 1
		if c >= n {
			break
		}
		best := c
		end := min(c+4, n)
		for j := c + 1; j < end; j++ {
			if h[j].before(&h[best]) {
				best = j
			}
		}
		if !h[best].before(&x) {
			break
		}
		h[i] = h[best]
		i = best
	}
	h[i] = x
}
