package engine

import (
	"container/heap"
	"testing"
	"testing/quick"
	"time"
)

// refHeap is the reference queue: container/heap on (time, order), the
// order the Queue gives each event (its insertion sequence and kind).
type refHeap []Event

func (h refHeap) Len() int           { return len(h) }
func (h refHeap) Less(i, j int) bool { return h[i].before(&h[j]) }
func (h refHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *refHeap) Push(x any)        { *h = append(*h, x.(Event)) }
func (h *refHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// second is the earliest time but the least event's, the largest Duration if none.
func (h refHeap) second() time.Duration {
	if len(h) < 2 {
		return 1<<63 - 1
	}
	best := 1
	for i := 2; i < len(h); i++ {
		if h[i].before(&h[best]) {
			best = i
		}
	}
	return h[best].At
}

// queueDriver drives a Queue and the reference side by side, with random
// operations, and reports the first difference.
type queueDriver struct {
	t    *testing.T
	rnd  Stream
	q    Queue
	ref  refHeap
	runs map[uint64]int // an event's order → how many of its reserved run follow it
	step int
}

// gap is how far after now the next event is: now itself (a tie), a few
// nanoseconds, up to a second, or up to hours, so that events land in the
// heap, in low buckets and in high ones.
func (d *queueDriver) gap() time.Duration {
	switch d.rnd.Uint64() % 6 {
	case 0:
		return 0
	case 1:
		return d.rnd.Duration(4)
	case 2:
		return d.rnd.Duration(1000)
	case 3:
		return d.rnd.Duration(time.Second)
	case 4:
		return d.rnd.Duration(4 * time.Hour)
	}
	return d.rnd.Duration(time.Millisecond)
}

func (d *queueDriver) fail(format string, args ...any) {
	d.t.Helper()
	d.t.Fatalf("step %d (nearMax %d): "+format, append([]any{d.step, nearMax}, args...)...)
}

// schedule adds one event by Schedule (sometimes with a reserved run after
// it) or ScheduleInOrder, to both.
func (d *queueDriver) schedule() {
	at := d.q.Now() + d.gap()
	kind, a := Kind(d.step%7), int32(d.step)
	if d.rnd.Uint64()%6 == 0 {
		last := at
		if n := len(d.q.line.events); n > d.q.line.head {
			last = max(last, d.q.line.events[n-1].At)
		}
		at = last
		d.q.ScheduleInOrder(at, kind, a, -a)
	} else {
		d.q.Schedule(at, kind, a, -a)
	}
	ev := Event{At: at, order: d.q.Seq()<<8 | uint64(kind), A: a, B: -a}
	if n := int(d.rnd.Uint64() % 8); n > 1 && d.rnd.Uint64()%4 == 0 {
		d.q.Reserve(n)
		d.runs[ev.order] = n - 1
	}
	heap.Push(&d.ref, ev)
}

// nextOfRun is the next event of ev's reserved run, if it has one, for
// ScheduleNext or ReplaceTopNext.
func (d *queueDriver) nextOfRun(ev Event) (Event, bool) {
	left, ok := d.runs[ev.order]
	if !ok || left == 0 {
		return Event{}, false
	}
	next := Event{At: ev.At, order: ev.order + 1<<8, A: ev.A + 1, B: ev.B}
	d.runs[next.order] = left - 1
	return next, true
}

func (d *queueDriver) pop() {
	want := heap.Pop(&d.ref).(Event)
	if at, ok := d.q.Next(); !ok || at != want.At {
		d.fail("Next() = %v, %v; want %v, true", at, ok, want.At)
	}
	got := d.q.Pop()
	if got != want {
		d.fail("Pop() = %+v, want %+v", got, want)
	}
	if next, ok := d.nextOfRun(got); ok && d.rnd.Uint64()%2 == 0 {
		d.q.ScheduleNext(got, next.A)
		heap.Push(&d.ref, next)
	}
}

// inPlace handles the top where it is, as the kernel does: Top, then
// ReplaceTop, ReplaceTopNext or DropTop, NextAfterTop checked on the way.
func (d *queueDriver) inPlace() {
	top, ok := d.q.Top()
	if !ok {
		return // the line's first is earliest, or nothing is pending
	}
	if want := d.ref[0]; top != want {
		d.fail("Top() = %+v, want %+v", top, want)
	}
	if got, want := d.q.NextAfterTop(), d.ref.second(); got != want {
		d.fail("NextAfterTop() = %v, want %v", got, want)
	}
	soonest := time.Duration(1<<63 - 1) // the earliest of Soon's, and the line's first
	if d.q.line.head < len(d.q.line.events) {
		soonest = d.q.line.events[d.q.line.head].At
	}
	for i := 1; i <= 4; i++ {
		if ev, ok := d.q.Soon(i); ok {
			soonest = min(soonest, ev.At)
		}
	}
	if want := d.ref.second(); soonest != want {
		d.fail("the earliest of Soon(1..4) and the line = %v, want the second earliest pending, %v", soonest, want)
	}
	d.q.AdvanceTo(top.At)
	heap.Pop(&d.ref)
	if next, ok := d.nextOfRun(top); ok {
		d.q.ReplaceTopNext(top, next.A)
		heap.Push(&d.ref, next)
		return
	}
	switch d.rnd.Uint64() % 4 {
	case 0:
		d.q.DropTop()
		return
	case 1: // handled as drawn, never scheduled (the kernel's superposed group)
		d.q.TakeSeq()
	}
	at, kind, a := top.At+d.gap(), Kind(d.step%7), int32(d.step)
	d.q.ReplaceTop(at, kind, a, -a)
	heap.Push(&d.ref, Event{At: at, order: d.q.Seq()<<8 | uint64(kind), A: a, B: -a})
}

// run does steps random operations, scheduling more than it pops while
// grow holds, so that the queue fills past nearMax and drains again.
func (d *queueDriver) run(steps int) {
	for d.step = range steps {
		grow := d.step%4000 < 2500
		switch r := d.rnd.Uint64() % 16; {
		case len(d.ref) == 0 || (grow && r < 9) || r < 5:
			d.schedule()
		case r < 12:
			d.pop()
		case r < 15:
			d.inPlace()
		case d.rnd.Uint64()%400 == 0:
			d.q.Clear()
			d.ref = d.ref[:0]
		default:
			if d.q.Pending() != len(d.ref) {
				d.fail("Pending() = %d, want %d", d.q.Pending(), len(d.ref))
			}
		}
		if d.step%4000 == 3999 { // empty, with the buckets' base and width as they were
			for len(d.ref) > 0 {
				d.pop()
			}
		}
	}
	for len(d.ref) > 0 {
		d.pop()
	}
	if d.q.Pending() != 0 {
		d.fail("Pending() = %d once every event is popped, want 0", d.q.Pending())
	}
}

// TestQueueIsTheReferenceHeap: on random schedules (ties at one instant, runs
// reserved and scheduled next, events handled in place at the top, times from
// nanoseconds to hours apart, pending counts from none to thousands), the
// Queue pops every event (time, kind, values and sequence) and answers Next,
// Top, NextAfterTop, Soon and Pending as container/heap on (time, insertion
// sequence) does, Clear and emptying included, with the heap's size limit small enough that the buckets
// fill, split and refill many times, and at its default.
func TestQueueIsTheReferenceHeap(t *testing.T) {
	defer func(n int) { nearMax = n }(nearMax)
	prop := func(seed uint64, limit uint8) bool {
		nearMax = 2 + int(limit)%200
		if limit%17 == 0 {
			nearMax = 1 << 15
		}
		d := &queueDriver{t: t, rnd: NewStream(seed, 0xfa), runs: map[uint64]int{}}
		d.run(12000)
		return true
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 100}); err != nil {
		t.Error(err)
	}
}
