package engine

import (
	"testing"
	"time"
)

// TestScheduleNextKeepsKindAndSequence runs a reserved run of three through
// ScheduleNext beside a tie scheduled after the run was reserved: the run's
// events pop first, in turn, each with the kind the run was scheduled with
// (the engine carries the kind, it never changes it), then the tie.
func TestScheduleNextKeepsKindAndSequence(t *testing.T) {
	const (
		at      = 7 * time.Millisecond
		runKind = Kind(5)
		other   = Kind(2)
	)
	var e Queue
	e.Schedule(at, runKind, 0, 42) // the run's first, sequence 1
	e.Reserve(3)                   // sequences 2 and 3 for the run's next
	e.Schedule(at, other, 100, 0)  // sequence 4: after the whole run
	for i := range int32(3) {
		ev := e.Pop()
		if ev.At != at || ev.A != i || ev.B != 42 {
			t.Fatalf("pop %d = (at %v, a %d, b %d), want (at %v, a %d, b 42)", i, ev.At, ev.A, ev.B, at, i)
		}
		if ev.Kind() != runKind {
			t.Fatalf("pop %d: kind = %d, want the run's kind %d", i, ev.Kind(), runKind)
		}
		if i < 2 {
			e.ScheduleNext(ev, i+1)
		}
	}
	ev := e.Pop()
	if ev.A != 100 || ev.Kind() != other {
		t.Fatalf("last pop = (a %d, kind %d), want the tie scheduled after the run (a 100, kind %d)", ev.A, ev.Kind(), other)
	}
	if e.Pending() != 0 {
		t.Errorf("pending = %d, want 0", e.Pending())
	}
}
