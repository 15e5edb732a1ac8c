package sim

import (
	"strconv"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim/window"
)

// TestLaterAddsPromise: an admission at or before now is added at once; one
// after now waits until catchUp reaches its instant (inclusive), and held ones
// come out in time order whatever order they were added in.
func TestLaterAddsPromise(t *testing.T) {
	var q laterAdds
	p := window.NewUntimed(time.Hour, 100, 2)
	q.add(&p, 0, 10, 10, 1) // at == now: at once
	if got := p.Held(0); got != 1 {
		t.Fatalf("after add at now, Held(0) = %d, want 1", got)
	}
	q.add(&p, 0, 10, 30, 2)
	q.add(&p, 1, 10, 20, 4)
	q.add(&p, 0, 10, 20, 8)
	if got := len(q.h); got != 3 {
		t.Fatalf("%d admissions held, want 3", got)
	}
	q.catchUp(19)
	if p.Held(0) != 1 || p.Held(1) != 0 || len(q.h) != 3 {
		t.Errorf("catchUp(19): Held %d, %d with %d waiting; want 1, 0 with 3", p.Held(0), p.Held(1), len(q.h))
	}
	q.catchUp(20) // exactly the instant: both at 20 come in
	if p.Held(0) != 2 || p.Held(1) != 1 || len(q.h) != 1 {
		t.Errorf("catchUp(20): Held %d, %d with %d waiting; want 2, 1 with 1", p.Held(0), p.Held(1), len(q.h))
	}
	// An admission at now adds what is due first, so the tracker sees time order.
	q.add(&p, 1, 35, 35, 16)
	if p.Held(0) != 3 || p.Held(1) != 2 || len(q.h) != 0 {
		t.Errorf("add at 35: Held %d, %d with %d waiting; want 3, 2 with 0", p.Held(0), p.Held(1), len(q.h))
	}
	w := p.Worst(func(k int32) string { return strconv.Itoa(int(k)) })
	if w.Count != 4+16 || w.Key != "1" {
		t.Errorf("Worst = %+v, want key 1 with %d", w, 4+16)
	}
}

// TestLaterAddsOrderPromise: with a window short enough to tell, admissions
// held out of order are counted at their own instants.
func TestLaterAddsOrderPromise(t *testing.T) {
	var q laterAdds
	p := window.NewUntimed(10, 100, 1)
	for _, at := range []time.Duration{50, 5, 30, 6, 45} {
		q.add(&p, 0, 0, at, 1)
	}
	q.catchUp(100)
	// Windows of 10 hold at most two of them ({5, 6} or {45, 50}).
	w := p.Worst(func(int32) string { return "k" })
	if w.Count != 2 {
		t.Errorf("Worst count = %d, want 2 (admissions at 5, 6, 30, 45, 50 in windows of 10)", w.Count)
	}
}
