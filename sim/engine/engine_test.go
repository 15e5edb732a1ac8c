package engine

import (
	"math"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

// The tests' kinds of event: the queue carries them without reading them.
const (
	kindFirst Kind = iota
	kindLast  Kind = 6
)

func TestEngineTiesPopInInsertionOrder(t *testing.T) {
	var e Queue
	const at = 5 * time.Millisecond
	// A later event scheduled first and an earlier one scheduled last must not
	// disturb the tie.
	e.Schedule(at+1, kindLast, -1, 0)
	for i := range 100 {
		e.Schedule(at, kindLast, int32(i), 0)
	}
	e.Schedule(at-1, kindLast, -2, 0)
	if ev := e.Pop(); ev.A != -2 || ev.At != at-1 {
		t.Fatalf("first pop = event a=%d at %v, want the earliest, a=-2 at %v", ev.A, ev.At, at-1)
	}
	for i := range 100 {
		ev := e.Pop()
		if ev.A != int32(i) || ev.At != at {
			t.Fatalf("pop %d of the tie = event a=%d at %v, want a=%d at %v", i, ev.A, ev.At, i, at)
		}
		if e.Now() != at {
			t.Fatalf("now = %v after pop, want %v", e.Now(), at)
		}
	}
	if ev := e.Pop(); ev.A != -1 || ev.At != at+1 {
		t.Fatalf("last pop = event a=%d at %v, want the latest, a=-1 at %v", ev.A, ev.At, at+1)
	}
	if e.Pending() != 0 {
		t.Errorf("pending() = %d after popping everything, want 0", e.Pending())
	}
	if _, ok := e.Next(); ok {
		t.Errorf("next() ok on an empty engine")
	}
}

// TestEngineOrderProperty schedules random batches (times drawn from a narrow range
// so that ties are frequent) and checks that pop returns them as a stable sort by
// time would.
func TestEngineOrderProperty(t *testing.T) {
	rnd := NewStream(1, 0xe9)
	for trial := range 200 {
		n := 1 + int(rnd.Uint64()%300)
		span := time.Duration(1 + rnd.Uint64()%20) // as few as 1 distinct instant
		var e Queue
		var want []Event
		for i := range n {
			at := rnd.Duration(span)
			e.Schedule(at, kindLast, int32(i), int32(trial))
			want = append(want, Event{At: at, A: int32(i)})
		}
		sort.SliceStable(want, func(i, j int) bool { return want[i].At < want[j].At })
		for k, w := range want {
			if at, ok := e.Next(); !ok || at != w.At {
				t.Fatalf("trial %d: next() = %v, %v before pop %d, want %v, true", trial, at, ok, k, w.At)
			}
			got := e.Pop()
			if got.At != w.At || got.A != w.A {
				t.Fatalf("trial %d: pop %d = (at %v, a %d), want (at %v, a %d)", trial, k, got.At, got.A, w.At, w.A)
			}
		}
	}
}

// TestEngineInterleaved mixes schedules and pops, as a simulation does, against a
// reference that scans for the least (at, insertion number).
// TestEngineInterleaved pops events as a reference list would, while events
// are scheduled in between: in the heap only, and (inOrder) also in the line,
// in time order mostly, so that some go to the line and some to the heap.
func TestEngineInterleaved(t *testing.T) {
	for _, inOrder := range []bool{false, true} {
		testEngineInterleaved(t, inOrder)
	}
}

func testEngineInterleaved(t *testing.T, inOrder bool) {
	type scheduled struct {
		at time.Duration
		a  int32 // the step that scheduled it: increasing, so it orders ties
	}
	rnd := NewStream(2, 0xe9)
	var e Queue
	var ref []scheduled
	var lineAt time.Duration // the latest time given to scheduleInOrder
	for step := range 20000 {
		if len(ref) == 0 || rnd.Uint64()%5 < 3 {
			at := e.Now() + rnd.Duration(50)
			kind := Kind(step % int(kindLast+1))
			switch {
			case inOrder && rnd.Uint64()%2 == 0:
				if rnd.Uint64()%8 > 0 { // in time order, or a tie
					at = max(at, lineAt+rnd.Duration(3))
				}
				lineAt = max(lineAt, at)
				e.ScheduleInOrder(at, kind, int32(step), -int32(step))
			default:
				e.Schedule(at, kind, int32(step), -int32(step))
			}
			ref = append(ref, scheduled{at: at, a: int32(step)})
			continue
		}
		least := 0
		for i, r := range ref {
			if r.at < ref[least].at || (r.at == ref[least].at && r.a < ref[least].a) {
				least = i
			}
		}
		want := ref[least]
		ref = slices.Delete(ref, least, least+1)
		got := e.Pop()
		if got.At != want.at || got.A != want.a {
			t.Fatalf("in order %v, step %d: pop = (at %v, a %d), want (at %v, a %d)", inOrder, step, got.At, got.A, want.at, want.a)
		}
		if wantKind := Kind(int(want.a) % int(kindLast+1)); got.Kind() != wantKind || got.B != -want.a {
			t.Fatalf("step %d: pop = (kind %d, b %d), want what was scheduled: (kind %d, b %d)", step, got.Kind(), got.B, wantKind, -want.a)
		}
		if e.Now() != want.at {
			t.Fatalf("step %d: now = %v after pop, want %v", step, e.Now(), want.at)
		}
		if e.Pending() != len(ref) {
			t.Fatalf("step %d: pending() = %d, want %d", step, e.Pending(), len(ref))
		}
	}
}

func TestEngineSchedulePastPanics(t *testing.T) {
	var e Queue
	e.Schedule(10, kindLast, 0, 0)
	e.Pop()
	e.Schedule(10, kindLast, 1, 0) // now itself is allowed
	defer func() {
		r := recover()
		if msg, _ := r.(string); !strings.Contains(msg, "engine.Queue.Schedule") {
			t.Errorf("schedule(9) at now 10 recovered %v, want a panic naming engine.Queue.Schedule", r)
		}
	}()
	e.Schedule(9, kindLast, 2, 0)
	t.Errorf("schedule(9) at now 10 did not panic")
}

func TestEngineNoAllocsInSteadyState(t *testing.T) {
	for _, pending := range []int{1, 1000} {
		var e Queue
		gaps := benchGaps()
		for i := range pending {
			e.Schedule(gaps[i%len(gaps)], kindLast, int32(i), 0)
		}
		i := 0
		allocs := testing.AllocsPerRun(10000, func() {
			ev := e.Pop()
			e.Schedule(ev.At+gaps[i&(len(gaps)-1)], ev.Kind(), ev.A, ev.B)
			i++
		})
		if allocs != 0 {
			t.Errorf("%d pending: %v allocations per schedule+pop, want 0", pending, allocs)
		}
	}
	// The line, never empty: it must reuse its array, not grow without end.
	var e Queue
	for i := range 100 {
		e.ScheduleInOrder(time.Duration(i), kindFirst, int32(i), 0)
	}
	allocs := testing.AllocsPerRun(10000, func() {
		ev := e.Pop()
		e.ScheduleInOrder(ev.At+100, ev.Kind(), ev.A, ev.B)
	})
	if allocs != 0 || e.Pending() != 100 {
		t.Errorf("a line of 100: %v allocations per scheduleInOrder+pop, %d pending; want 0, 100", allocs, e.Pending())
	}
}

// benchGaps are exponential gaps of mean 1ms, drawn once so that benchmarks measure
// the engine, not the random stream. Its length is a power of two.
func benchGaps() []time.Duration {
	rnd := NewStream(3, 0xe9)
	gaps := make([]time.Duration, 1<<12)
	for i := range gaps {
		gaps[i] = rnd.Exp(time.Millisecond)
	}
	return gaps
}

// BenchmarkEngine pops the earliest event and schedules its successor, keeping the
// number of pending events constant: one event is a single merged arrival stream;
// 100,000 is that many clients each waiting for its next request.
func BenchmarkEngine(b *testing.B) {
	for _, bc := range []struct {
		name    string
		pending int
	}{{"pending=1", 1}, {"pending=100000", 100_000}} {
		b.Run(bc.name, func(b *testing.B) {
			gaps := benchGaps()
			var e Queue
			spread := NewStream(4, 0xe9)
			for i := range bc.pending {
				// Clients start spread over as long as one of them waits between events.
				e.Schedule(spread.Duration(time.Duration(bc.pending)*time.Millisecond), kindFirst, int32(i), 0)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				ev := e.Pop()
				e.Schedule(ev.At+time.Duration(bc.pending)*gaps[i&(len(gaps)-1)], ev.Kind(), ev.A, ev.B)
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}

// TestInPlaceTakesAreThePops drains two queues given the same events, heap
// and line, with many ties: one by Pop, the other in place, by Top and
// DropTop when the heap's top is earliest and by LineFirst and DropLineFirst
// when the line's first is: each take must be the pop, and LineHead and
// NextInHeapAfterTop must make up NextAfterTop.
func TestInPlaceTakesAreThePops(t *testing.T) {
	rnd := NewStream(3, 0x1f)
	var popped, inPlace Queue
	var lineAt time.Duration
	inHeapAt := map[int32]time.Duration{} // the heap's pending events, by step
	for step := range 20000 {
		if popped.Pending() == 0 || rnd.Uint64()%5 < 3 {
			at := popped.Now() + rnd.Duration(4)
			if rnd.Uint64()%2 == 0 {
				at = max(at, lineAt)
				lineAt = at
				popped.ScheduleInOrder(at, 1, int32(step), 0)
				inPlace.ScheduleInOrder(at, 1, int32(step), 0)
			} else {
				popped.Schedule(at, 2, int32(step), 0)
				inPlace.Schedule(at, 2, int32(step), 0)
				inHeapAt[int32(step)] = at
			}
			continue
		}
		want := popped.Pop()
		var got Event
		top, inHeap := inPlace.Top()
		first, inLine := inPlace.LineFirst()
		switch {
		case inHeap == inLine:
			t.Fatalf("step %d: Top ok %v, LineFirst ok %v: want one of them", step, inHeap, inLine)
		case inHeap:
			wantNext := time.Duration(math.MaxInt64)
			for a, at := range inHeapAt {
				if a != top.A {
					wantNext = min(wantNext, at)
				}
			}
			next := inPlace.NextInHeapAfterTop()
			if next != wantNext {
				t.Fatalf("step %d: NextInHeapAfterTop = %v, want %v", step, next, wantNext)
			}
			delete(inHeapAt, top.A)
			if head, ok := inPlace.LineHead(); ok {
				next = min(next, head.At)
			}
			if after := inPlace.NextAfterTop(); next != after {
				t.Fatalf("step %d: NextInHeapAfterTop with LineHead = %v, want NextAfterTop %v", step, next, after)
			}
			got = top
			inPlace.AdvanceTo(top.At)
			inPlace.DropTop()
		default:
			if head, _ := inPlace.LineHead(); head != first {
				t.Fatalf("step %d: LineHead = %+v, want LineFirst %+v", step, head, first)
			}
			got = first
			inPlace.AdvanceTo(first.At)
			inPlace.DropLineFirst()
		}
		if got != want {
			t.Fatalf("step %d: taken in place %+v, popped %+v", step, got, want)
		}
	}
}
