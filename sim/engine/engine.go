// Package engine is the leaf under sim: a discrete-event queue on a virtual
// clock (Queue) and the seeded random streams every draw of a run comes from
// (Stream). It knows nothing of clients, limits or lanes: an event is a time,
// a kind the engine does not interpret and two int32s, and a stream is a
// SplitMix64 state derived from a seed and labels. Time is integer
// nanoseconds (time.Duration); nothing here reads the wall clock or the global
// random source, so the same calls give the same events and draws on every
// machine.
package engine

import (
	"math"
	"time"
)

// Kind is what an event does, numbered by the queue's user (at most 256
// kinds): the engine carries it and never reads it.
type Kind uint8

// Event is one scheduled happening: a time, a Kind and two values the kind
// needs (a client and a component, a request...). Events are ordered by time,
// ties in the order they were scheduled, so runs are reproducible. It is 24
// bytes: the insertion sequence and the kind share one word, so the heap stays
// small enough for the cache with 100,000 events pending.
type Event struct {
	At    time.Duration
	order uint64 // insertion sequence << 8 | kind
	A, B  int32
}

// Kind is what the event does, as it was scheduled.
func (e *Event) Kind() Kind { return Kind(e.order) }

func (e *Event) before(o *Event) bool {
	return e.At < o.At || (e.At == o.At && e.order < o.order)
}

// Queue is a discrete-event queue on a virtual clock: a typed 4-ary min-heap
// with no allocation per event once it has grown to the number of pending
// events, beside a first-in first-out line for events scheduled in time order
// (ScheduleInOrder), which need no heap: they pop as if they were in it.
// Events come out in time order, ties in the order they were scheduled. The
// zero value is an empty queue at time 0. Not safe for concurrent use.
type Queue struct {
	now  time.Duration
	seq  uint64
	heap []Event
	far  farBuckets // the later events, once the heap would outgrow the cache (far.go)
	line eventLine
}

// eventLine is a queue of events in (at, order) order: line[head:] are pending.
type eventLine struct {
	events []Event
	head   int
}

func (q *eventLine) empty() bool { return q.head == len(q.events) }

// Now is the clock: the time of the latest event popped, or as set by AdvanceTo.
func (e *Queue) Now() time.Duration { return e.now }

// AdvanceTo sets the clock to t, never before Now: for the event at the top
// handled in place (Top, then ReplaceTop, ReplaceTopNext or DropTop), or for
// one handled as it is drawn, without being scheduled (TakeSeq).
func (e *Queue) AdvanceTo(t time.Duration) { e.now = t }

// Reset empties the queue and sets its clock and sequence back to 0, keeping
// its memory.
func (e *Queue) Reset() {
	e.Clear()
	e.now, e.seq = 0, 0
}

// Clear drops every pending event, keeping the clock, the sequence and the memory.
func (e *Queue) Clear() {
	e.heap = e.heap[:0]
	e.far.clear()
	e.line.events, e.line.head = e.line.events[:0], 0
}

// Grow makes room in the heap for n more pending events, so that it does not
// grow by append, holding its old and new arrays at once; for nearMax of them
// at most, since the heap keeps no more (far.go) unless they tie.
func (e *Queue) Grow(n int) {
	n = min(n, nearMax+1)
	if cap(e.heap)-len(e.heap) >= n {
		return
	}
	h := make([]Event, len(e.heap), len(e.heap)+n)
	copy(h, e.heap)
	e.heap = h
}

// ScheduleInOrder is Schedule for an event no earlier than the last one it
// scheduled still pending (a leaky bucket's releases of one key are): it joins
// the line, in O(1), or the heap when it would come before the line's last.
func (e *Queue) ScheduleInOrder(at time.Duration, kind Kind, a, b int32) {
	q := &e.line
	if !q.empty() && at < q.events[len(q.events)-1].At {
		e.Schedule(at, kind, a, b)
		return
	}
	if at < e.now {
		panic("engine.Queue.ScheduleInOrder: event in the past")
	}
	if q.empty() {
		q.events, q.head = q.events[:0], 0
	} else if q.head >= 64 && 2*q.head >= len(q.events) {
		n := copy(q.events, q.events[q.head:])
		q.events, q.head = q.events[:n], 0
	}
	e.seq++
	q.events = append(q.events, Event{At: at, order: e.seq<<8 | uint64(kind), A: a, B: b})
}

// lineFirst reports whether the line's first event comes before the heap's.
func (e *Queue) lineFirst() bool {
	q := &e.line
	return !q.empty() && (len(e.heap) == 0 || q.events[q.head].before(&e.heap[0]))
}

// LineFirst is the earliest event, left pending, when it is the first of the
// line (ScheduleInOrder), where it can be handled in place (DropLineFirst);
// ok is false when no event is pending or the earliest is in the heap (Top).
// The heap's events beyond nearMax wait in buckets, every one after the
// heap's top, so the heap's top and the line's first are the two candidates.
func (e *Queue) LineFirst() (first Event, ok bool) {
	if !e.lineFirst() {
		return first, false
	}
	return e.line.events[e.line.head], true
}

// DropLineFirst removes the line's first event, once handled (LineFirst,
// LineHead).
func (e *Queue) DropLineFirst() {
	e.line.head++
}

// LineHead is the line's first event, whatever the heap holds, for a caller
// handling the heap's top in place that must know what follows it; ok is
// false when the line is empty.
func (e *Queue) LineHead() (first Event, ok bool) {
	if e.line.empty() {
		return first, false
	}
	return e.line.events[e.line.head], true
}

// NextInHeapAfterTop is the earliest time of a pending event of the heap
// (or its buckets) other than its top, the largest Duration when there is
// none: NextAfterTop without the line.
func (e *Queue) NextInHeapAfterTop() time.Duration {
	if len(e.heap) == 1 && e.far.n > 0 {
		e.refill() // the next is in a bucket: bring the earliest bucket's events in
	}
	next := time.Duration(math.MaxInt64)
	for i := 1; i <= 4 && i < len(e.heap); i++ {
		next = min(next, e.heap[i].At)
	}
	return next
}

// Schedule adds an event at virtual time at, never before Now.
func (e *Queue) Schedule(at time.Duration, kind Kind, a, b int32) {
	if at < e.now {
		panic("engine.Queue.Schedule: event in the past")
	}
	e.seq++
	e.push(Event{At: at, order: e.seq<<8 | uint64(kind), A: a, B: b})
}

// Reserve takes the next n−1 sequence numbers after the event scheduled last,
// for the events that follow it at once (ScheduleNext): as if they were
// scheduled now, without being pending yet.
func (e *Queue) Reserve(n int) {
	e.seq += uint64(n - 1)
}

// ScheduleNext adds, for an event of a reserved run just taken off the queue,
// the next of the run: at the same time, for a of next, with the sequence
// number after prev's.
func (e *Queue) ScheduleNext(prev Event, a int32) {
	e.push(Event{At: prev.At, order: prev.order + 1<<8, A: a, B: prev.B})
}

// Seq is the sequence number of the event scheduled last: it changes whenever
// an event is scheduled.
func (e *Queue) Seq() uint64 { return e.seq }

// TakeSeq takes the next sequence number without scheduling, for an event
// handled as it is drawn: it is as if it were scheduled now and popped at once.
func (e *Queue) TakeSeq() { e.seq++ }

// Pending is the number of scheduled events.
func (e *Queue) Pending() int { return len(e.heap) + e.far.n + len(e.line.events) - e.line.head }

// Next is the time of the earliest event; ok is false when none is pending.
func (e *Queue) Next() (at time.Duration, ok bool) {
	if e.lineFirst() {
		return e.line.events[e.line.head].At, true
	}
	if len(e.heap) == 0 {
		return 0, false
	}
	return e.heap[0].At, true
}

// Pop removes the earliest event and advances the clock to it.
func (e *Queue) Pop() Event {
	var top Event
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
		} else if e.far.n > 0 {
			e.refill()
		}
		if e.far.n > 0 && last < cap(h)/4 && cap(h) > 8*nearMax {
			e.heap = append(make([]Event, 0, cap(h)/2), e.heap...) // a tie that filled it has drained
		}
	}
	if top.At < e.now {
		panic("engine.Queue.Pop: an event before the clock: events were handled out of order")
	}
	e.now = top.At
	return top
}

// Top is the earliest event, left pending, when it is at the top of the heap,
// where it can be handled in place (ReplaceTop, ReplaceTopNext, DropTop); ok
// is false when no event is pending or the earliest is in the line.
func (e *Queue) Top() (top Event, ok bool) {
	if len(e.heap) == 0 || e.lineFirst() {
		return top, false
	}
	return e.heap[0], true
}

// ReplaceTop replaces the earliest event, once handled, with a new one: Pop
// then Schedule in one sift. The new event gets the next insertion sequence,
// as Schedule gives it; the clock must already be at the earliest event.
func (e *Queue) ReplaceTop(at time.Duration, kind Kind, a, b int32) {
	if at < e.now {
		panic("engine.Queue.ReplaceTop: event in the past")
	}
	e.seq++
	ev := Event{At: at, order: e.seq<<8 | uint64(kind), A: a, B: b}
	if j, far := e.far.far(at); far {
		e.far.add(j, ev)
		e.DropTop()
		return
	}
	e.heap[0] = ev
	if len(e.heap) > 1 {
		e.down(0)
	}
}

// ReplaceTopNext replaces the earliest event prev, once handled, with the
// next of its reserved run, for a (ScheduleNext): Pop then ScheduleNext in
// one sift.
func (e *Queue) ReplaceTopNext(prev Event, a int32) {
	e.heap[0] = Event{At: prev.At, order: prev.order + 1<<8, A: a, B: prev.B}
	if len(e.heap) > 1 {
		e.down(0)
	}
}

// NextAfterTop is the earliest time of a pending event other than the
// earliest, the largest Duration when there is none: the least of the top's
// children in the heap and of the line's first.
func (e *Queue) NextAfterTop() time.Duration {
	next := e.NextInHeapAfterTop()
	if !e.line.empty() {
		next = min(next, e.line.events[e.line.head].At)
	}
	return next
}

// Soon is the i-th (1 to 4) of the events one of which comes next after the
// top (its children in the heap), for a caller that reads ahead what they
// will touch; ok is false past the heap's end.
func (e *Queue) Soon(i int) (ev Event, ok bool) {
	if i >= len(e.heap) {
		return ev, false
	}
	return e.heap[i], true
}

// DropTop removes the earliest event, once handled.
func (e *Queue) DropTop() {
	last := len(e.heap) - 1
	e.heap[0] = e.heap[last]
	e.heap = e.heap[:last]
	if last > 0 {
		e.down(0)
	} else if e.far.n > 0 {
		e.refill()
	}
}

func (e *Queue) up(i int) {
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

func (e *Queue) down(i int) {
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
