package toylane

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

func TestNewRefusesABadPolicy(t *testing.T) {
	for _, p := range []algorithms.Policy{{Limit: 0, Window: time.Second}, {Limit: 1}, {Limit: -1, Window: -1}} {
		if b, err := New(p); err == nil || b != nil {
			t.Errorf("New(%+v) = %v, %v; want an error", p, b, err)
		}
	}
}

func TestBudgetSteps(t *testing.T) {
	b, err := New(algorithms.Policy{Limit: 3, Window: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var s State
	ms := time.Millisecond
	steps := []struct {
		at        time.Duration
		cost      int64
		verdict   algorithms.Verdict
		remaining int64
		reset     time.Duration
		retry     time.Duration
	}{
		{0, 1, algorithms.Admit, 2, time.Second, 0},
		{200 * ms, 2, algorithms.Admit, 0, 800 * ms, 0},
		{999 * ms, 1, algorithms.Refuse, 0, ms, ms},
		// The window at 1s is a fresh one.
		{time.Second, 3, algorithms.Admit, 0, time.Second, 0},
		{1500 * ms, 3, algorithms.Refuse, 0, 500 * ms, 500 * ms}, // the whole limit: a wait admits it
		{2100 * ms, 2, algorithms.Admit, 1, 900 * ms, 0},
		{2200 * ms, 2, algorithms.Refuse, 1, 800 * ms, 800 * ms},
		// More than the limit: no wait admits it.
		{2300 * ms, 4, algorithms.Refuse, 1, 700 * ms, algorithms.Never},
		{2400 * ms, 1, algorithms.Admit, 0, 600 * ms, 0},
	}
	for _, st := range steps {
		d := b.Decide(&s, st.at, st.cost)
		if d.Verdict != st.verdict || d.Remaining != st.remaining || d.Reset != st.reset || d.RetryAfter != st.retry || d.Limit != 3 {
			t.Errorf("Decide(t0+%v, %d) = %v remaining %d reset %v retry %v limit %d; want %v %d %v %v 3",
				st.at, st.cost, d.Verdict, d.Remaining, d.Reset, d.RetryAfter, d.Limit, st.verdict, st.remaining, st.reset, st.retry)
		}
		if d.Verdict == algorithms.Refuse && !d.RetryAfterExact {
			t.Errorf("Decide(t0+%v, %d): a refusal's Retry-After is exact", st.at, st.cost)
		}
	}
}

func TestIdleAndCharge(t *testing.T) {
	b, _ := New(algorithms.Policy{Limit: 2, Window: time.Second})
	var s State
	if !b.Idle(&s, 0) {
		t.Error("a never-seen key is idle")
	}
	b.Charge(&s, 100*time.Millisecond, 5) // past the budget
	if b.Idle(&s, 100*time.Millisecond) || b.Idle(&s, time.Second-1) {
		t.Error("a key charged in this window is not idle")
	}
	if d := b.Decide(&s, 900*time.Millisecond, 1); d.Verdict != algorithms.Refuse || d.Remaining != 0 {
		t.Errorf("after a charge past the budget: %v remaining %d, want a refusal with 0", d.Verdict, d.Remaining)
	}
	if !b.Idle(&s, time.Second) {
		t.Error("idle from the next window on")
	}
	b.Charge(&s, 1100*time.Millisecond, 1)
	if d := b.Decide(&s, 1200*time.Millisecond, 1); d.Verdict != algorithms.Admit || d.Remaining != 0 {
		t.Errorf("a charge in a new window starts from 0: %v remaining %d, want admit 0", d.Verdict, d.Remaining)
	}
}
