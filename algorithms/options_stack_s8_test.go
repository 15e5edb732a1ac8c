package algorithms

import (
	"fmt"
	"math/rand"
	"testing"
	"testing/quick"
	"time"
)

// quickCheckN is quickCheck with n cases (the stacks are many: the suite's
// time is kept small).
func quickCheckN(t *testing.T, n int, f func(a arrivals) bool) {
	t.Helper()
	if err := quick.Check(f, &quick.Config{MaxCount: n, Rand: rand.New(rand.NewSource(int64(n)))}); err != nil {
		t.Fatal(err)
	}
}

// stackSpec is which lane options a stack applies, as the simulator nests
// them, innermost first: start, wait, penalty, ban, clock.
type stackSpec struct {
	start         *int64
	wait          time.Duration
	penalty       bool
	ban, clock    time.Duration
	wantsFillable bool // start or wait: a token bucket or GCRA only
	clockInside   bool // the clock inside the ban (the library allows it; the simulator puts it outside)
}

func (o stackSpec) String() string {
	s := ""
	if o.start != nil {
		s += fmt.Sprintf(" start %d", *o.start)
	}
	if o.wait > 0 {
		s += fmt.Sprintf(" wait %v", o.wait)
	}
	if o.penalty {
		s += " penalty"
	}
	if o.ban > 0 {
		s += fmt.Sprintf(" ban %v", o.ban)
	}
	if o.clock > 0 {
		s += fmt.Sprintf(" clock %v", o.clock)
	}
	return s
}

// stackOf is inner under the options o, as a subject on a fresh state.
func stackOf[S any](name string, inner Chargeable[S], o stackSpec) subject {
	r := inner
	if o.start != nil {
		r = must(StartAt[S](r, *o.start, 0))
	}
	if o.wait > 0 {
		r = must(WithWait[S](r, o.wait))
	}
	if o.penalty {
		r = WithPenalty[S](r)
	}
	name += o.String()
	if o.clockInside {
		name += " (clock inside the ban)"
		r = must(WithClock[S](r, o.clock))
		o.clock = 0
	}
	if o.ban > 0 {
		b := must(WithBan[S](r, o.ban))
		if o.clock > 0 {
			return subjectOf[BanState[S]](name, must(WithClock[BanState[S]](b, o.clock)))
		}
		return subjectOf[BanState[S]](name, b)
	}
	if o.clock > 0 {
		r = must(WithClock[S](r, o.clock))
	}
	return subjectOf[S](name, r)
}

// stacks are the option stacks tried on policy p (its window scales the
// durations), each on every limiter it applies to.
func stacks(p Policy) []stack {
	w := p.Window
	half := p.EffectiveBurst() / 2
	specs := []stackSpec{
		{penalty: true, ban: w},
		{ban: w / 3, clock: w/7 + 1},
		{penalty: true, clock: w/5 + 1},
		{penalty: true, ban: 2 * w, clock: time.Millisecond},
		{ban: w / 2, clock: w/3 + 1, clockInside: true},
		{start: &half, wait: w / 2, wantsFillable: true},
		{start: &half, penalty: true, ban: w, wantsFillable: true},
		{wait: w, penalty: true, clock: w/3 + 1, wantsFillable: true},
		{start: new(int64), wait: Never, ban: w / 2, clock: w/4 + 1, wantsFillable: true},
	}
	var out []stack
	for _, o := range specs {
		add := func(mk func() subject) { out = append(out, stack{o, mk}) }
		add(func() subject { return stackOf[TokenBucketState]("token bucket", must(NewTokenBucket(p)), o) })
		add(func() subject { return stackOf[GCRAState]("gcra", must(NewGCRA(p)), o) })
		if o.wantsFillable {
			continue
		}
		add(func() subject { return stackOf[FixedWindowState]("fixed window", must(NewFixedWindow(p)), o) })
		add(func() subject { return stackOf[SlidingLogState]("sliding log", must(NewSlidingLog(p)), o) })
		add(func() subject {
			return stackOf[SlidingWindowCounterState]("sliding window counter", must(NewSlidingWindowCounter(p)), o)
		})
		add(func() subject { return stackOf[LeakyBucketState]("leaky bucket", must(NewLeakyBucket(p)), o) })
	}
	return out
}

// stack is one option stack on one limiter: its options and its maker.
type stack struct {
	spec stackSpec
	mk   func() subject
}

// Every stack of options the simulator builds answers Peek as Decide then
// decides, changes nothing by it, and answers the same after its idle states
// are dropped.
func TestOptionStacksPeekAndEviction(t *testing.T) {
	quickCheckN(t, 30, func(a arrivals) bool {
		for _, st := range stacks(a.p) {
			if !checkPeekAndEviction(t, st.mk(), st.mk, a.reqs) {
				return false
			}
		}
		return true
	})
}

// A refusal of a stack is honoured: the same request at RetryAfter later is
// not refused and, when exact, a nanosecond earlier not admitted at once
// (Never aside), with nothing else arriving.
func TestOptionStacksRefusalsHonoured(t *testing.T) {
	quickCheckN(t, 80, func(a arrivals) bool {
		for _, st := range stacks(a.p) {
			s := st.mk()
			for i, r := range a.reqs {
				d := s.decide(r.at, r.cost)
				if d.Verdict != Refuse {
					continue
				}
				call := lazy("%s %+v request %d: Decide(%s, cost %d)", s.name, a.p, i, t0offset(r.at), r.cost)
				// The retry is asked of the state after the refusal (a ban started, a penalty charged).
				if !honouredWithin(t, s, call, r.at, r.cost, d) {
					return false
				}
			}
		}
		return true
	})
}

// honouredWithin is honoured for a rule that may delay: the retry at
// RetryAfter is not refused; when RetryAfter is exact, one a nanosecond
// earlier is not admitted at once (a wait may delay it by that nanosecond).
func honouredWithin(t *testing.T, after subject, call fmt.Stringer, at time.Duration, cost int64, d Decision) bool {
	t.Helper()
	if d.RetryAfter == Never {
		// Never admitted alone: not at once, not after any wait (a day, a year).
		for _, later := range []time.Duration{0, time.Nanosecond, 24 * time.Hour, 365 * 24 * time.Hour} {
			if got := after.fork().decide(at+later, cost); got.Verdict != Refuse {
				t.Errorf("%s: RetryAfter Never, but the retry at %s is %v", call, t0plus(at+later), got.Verdict)
				return false
			}
		}
		return true
	}
	if d.RetryAfter <= 0 {
		t.Errorf("%s: RetryAfter = %v on a refusal, want > 0", call, d.RetryAfter)
		return false
	}
	if got := after.fork().decide(at+d.RetryAfter, cost); got.Verdict == Refuse {
		t.Errorf("%s: RetryAfter %v, but the retry at %s is refused", call, d.RetryAfter, t0plus(at+d.RetryAfter))
		return false
	}
	if got := after.fork().decide(at+d.RetryAfter-1, cost); d.RetryAfterExact && got.Verdict == Admit {
		t.Errorf("%s: RetryAfter %v (exact), but a retry 1ns earlier is admitted at once", call, d.RetryAfter)
		return false
	}
	return true
}

// A clock of one nanosecond truncates nothing: any stack under it decides as
// the stack without it.
func TestOptionStacksUnderANanosecondClock(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		half := a.p.EffectiveBurst() / 2
		for _, o := range []stackSpec{{penalty: true, ban: a.p.Window}, {start: &half, wait: a.p.Window, penalty: true}} {
			bare := stackOf[TokenBucketState]("token bucket", must(NewTokenBucket(a.p)), o)
			o.clock = 1
			clocked := stackOf[TokenBucketState]("token bucket", must(NewTokenBucket(a.p)), o)
			for i, r := range a.reqs {
				if db, dc := bare.decide(r.at, r.cost), clocked.decide(r.at, r.cost); db != dc {
					t.Errorf("%s request %d: Decide(%s, cost %d) = %+v, %+v without the clock", clocked.name, i, t0plus(r.at), r.cost, dc, db)
					return false
				}
			}
		}
		return true
	})
}
