package sim

import (
	"slices"
	"sort"
	"strings"
	"testing"
	"time"
)

func TestEngineTiesPopInInsertionOrder(t *testing.T) {
	var e engine
	const at = 5 * time.Millisecond
	// A later event scheduled first and an earlier one scheduled last must not
	// disturb the tie.
	e.schedule(at+1, evStudy, -1, 0)
	for i := range 100 {
		e.schedule(at, evStudy, int32(i), 0)
	}
	e.schedule(at-1, evStudy, -2, 0)
	if ev := e.pop(); ev.a != -2 || ev.at != at-1 {
		t.Fatalf("first pop = event a=%d at %v, want the earliest, a=-2 at %v", ev.a, ev.at, at-1)
	}
	for i := range 100 {
		ev := e.pop()
		if ev.a != int32(i) || ev.at != at {
			t.Fatalf("pop %d of the tie = event a=%d at %v, want a=%d at %v", i, ev.a, ev.at, i, at)
		}
		if e.now != at {
			t.Fatalf("now = %v after pop, want %v", e.now, at)
		}
	}
	if ev := e.pop(); ev.a != -1 || ev.at != at+1 {
		t.Fatalf("last pop = event a=%d at %v, want the latest, a=-1 at %v", ev.a, ev.at, at+1)
	}
	if e.pending() != 0 {
		t.Errorf("pending() = %d after popping everything, want 0", e.pending())
	}
	if _, ok := e.next(); ok {
		t.Errorf("next() ok on an empty engine")
	}
}

// TestEngineOrderProperty schedules random batches (times drawn from a narrow range
// so that ties are frequent) and checks that pop returns them as a stable sort by
// time would.
func TestEngineOrderProperty(t *testing.T) {
	rnd := streamFor(1, 0xe9)
	for trial := range 200 {
		n := 1 + int(rnd.next()%300)
		span := time.Duration(1 + rnd.next()%20) // as few as 1 distinct instant
		var e engine
		var want []event
		for i := range n {
			at := rnd.duration(span)
			e.schedule(at, evStudy, int32(i), int32(trial))
			want = append(want, event{at: at, a: int32(i)})
		}
		sort.SliceStable(want, func(i, j int) bool { return want[i].at < want[j].at })
		for k, w := range want {
			if at, ok := e.next(); !ok || at != w.at {
				t.Fatalf("trial %d: next() = %v, %v before pop %d, want %v, true", trial, at, ok, k, w.at)
			}
			got := e.pop()
			if got.at != w.at || got.a != w.a {
				t.Fatalf("trial %d: pop %d = (at %v, a %d), want (at %v, a %d)", trial, k, got.at, got.a, w.at, w.a)
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
	rnd := streamFor(2, 0xe9)
	var e engine
	var ref []scheduled
	var lineAt time.Duration // the latest time given to scheduleInOrder
	for step := range 20000 {
		if len(ref) == 0 || rnd.next()%5 < 3 {
			at := e.now + rnd.duration(50)
			kind := eventKind(step % int(evStudy+1))
			switch {
			case inOrder && rnd.next()%2 == 0:
				if rnd.next()%8 > 0 { // in time order, or a tie
					at = max(at, lineAt+rnd.duration(3))
				}
				lineAt = max(lineAt, at)
				e.scheduleInOrder(at, kind, int32(step), -int32(step))
			default:
				e.schedule(at, kind, int32(step), -int32(step))
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
		got := e.pop()
		if got.at != want.at || got.a != want.a {
			t.Fatalf("in order %v, step %d: pop = (at %v, a %d), want (at %v, a %d)", inOrder, step, got.at, got.a, want.at, want.a)
		}
		if wantKind := eventKind(int(want.a) % int(evStudy+1)); got.kind() != wantKind || got.b != -want.a {
			t.Fatalf("step %d: pop = (kind %d, b %d), want what was scheduled: (kind %d, b %d)", step, got.kind(), got.b, wantKind, -want.a)
		}
		if e.now != want.at {
			t.Fatalf("step %d: now = %v after pop, want %v", step, e.now, want.at)
		}
		if e.pending() != len(ref) {
			t.Fatalf("step %d: pending() = %d, want %d", step, e.pending(), len(ref))
		}
	}
}

func TestEngineSchedulePastPanics(t *testing.T) {
	var e engine
	e.schedule(10, evStudy, 0, 0)
	e.pop()
	e.schedule(10, evStudy, 1, 0) // now itself is allowed
	defer func() {
		r := recover()
		if msg, _ := r.(string); !strings.Contains(msg, "sim.engine.schedule") {
			t.Errorf("schedule(9) at now 10 recovered %v, want a panic naming sim.engine.schedule", r)
		}
	}()
	e.schedule(9, evStudy, 2, 0)
	t.Errorf("schedule(9) at now 10 did not panic")
}

func TestEngineNoAllocsInSteadyState(t *testing.T) {
	for _, pending := range []int{1, 1000} {
		var e engine
		gaps := benchGaps()
		for i := range pending {
			e.schedule(gaps[i%len(gaps)], evStudy, int32(i), 0)
		}
		i := 0
		allocs := testing.AllocsPerRun(10000, func() {
			ev := e.pop()
			e.schedule(ev.at+gaps[i&(len(gaps)-1)], ev.kind(), ev.a, ev.b)
			i++
		})
		if allocs != 0 {
			t.Errorf("%d pending: %v allocations per schedule+pop, want 0", pending, allocs)
		}
	}
	// The line, never empty: it must reuse its array, not grow without end.
	var e engine
	for i := range 100 {
		e.scheduleInOrder(time.Duration(i), evRelease, int32(i), 0)
	}
	allocs := testing.AllocsPerRun(10000, func() {
		ev := e.pop()
		e.scheduleInOrder(ev.at+100, ev.kind(), ev.a, ev.b)
	})
	if allocs != 0 || e.pending() != 100 {
		t.Errorf("a line of 100: %v allocations per scheduleInOrder+pop, %d pending; want 0, 100", allocs, e.pending())
	}
}

// benchGaps are exponential gaps of mean 1ms, drawn once so that benchmarks measure
// the engine, not the random stream. Its length is a power of two.
func benchGaps() []time.Duration {
	rnd := streamFor(3, 0xe9)
	gaps := make([]time.Duration, 1<<12)
	for i := range gaps {
		gaps[i] = rnd.exp(time.Millisecond)
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
			var e engine
			spread := streamFor(4, 0xe9)
			for i := range bc.pending {
				// Clients start spread over as long as one of them waits between events.
				e.schedule(spread.duration(time.Duration(bc.pending)*time.Millisecond), evArrival, int32(i), 0)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				ev := e.pop()
				e.schedule(ev.at+time.Duration(bc.pending)*gaps[i&(len(gaps)-1)], ev.kind(), ev.a, ev.b)
				i++
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
		})
	}
}
