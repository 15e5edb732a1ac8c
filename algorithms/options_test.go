package algorithms

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
	"testing/quick"
	"time"
)

// arrivals is a testing/quick value: a policy (policyFrom) and up to 300
// requests with non-decreasing times (trafficFrom).
type arrivals struct {
	p    Policy
	reqs []request
}

func (arrivals) Generate(r *rand.Rand, _ int) reflect.Value {
	p := policyFrom(r.Uint64(), r.Uint64(), r.Uint64())
	data := make([]byte, 4*r.Intn(300))
	r.Read(data)
	return reflect.ValueOf(arrivals{p: p, reqs: trafficFrom(p, data)})
}

func quickCheck(t *testing.T, f func(a arrivals) bool) {
	t.Helper()
	n := 300
	if testing.Short() {
		n = 40
	}
	if err := quick.Check(f, &quick.Config{MaxCount: n, Rand: rand.New(rand.NewSource(11))}); err != nil {
		t.Fatal(err)
	}
}

// subject is one rule and one key's state, type-erased for the option tables.
type subject struct {
	name   string
	decide func(now time.Duration, cost int64) Decision
	peek   func(now time.Duration, cost int64) Decision
	charge func(now time.Duration, cost int64)
	idle   func(now time.Duration) bool
	snap   func() any     // the state, as a comparable value
	fork   func() subject // the same rule on an independent copy of the state
}

func subjectOf[S any](name string, alg Chargeable[S]) subject { return subjectAt(name, alg, new(S)) }

func subjectAt[S any](name string, alg Chargeable[S], s *S) subject {
	return subject{
		name:   name,
		decide: func(now time.Duration, cost int64) Decision { return alg.Decide(s, now, cost) },
		peek:   func(now time.Duration, cost int64) Decision { return Peek[S](alg, s, now, cost) },
		charge: func(now time.Duration, cost int64) { alg.Charge(s, now, cost) },
		idle:   func(now time.Duration) bool { return alg.Idle(s, now) },
		snap:   func() any { return view(s) },
		fork: func() subject {
			c := new(S)
			cloneState(c, s)
			return subjectAt(name, alg, c)
		},
	}
}

// view is a state as a value DeepEqual can compare (see comparable).
func view(s any) any {
	switch s := s.(type) {
	case *SlidingLogState:
		return comparable(*s)
	case *BanState[SlidingLogState]:
		return [2]any{comparable(s.inner), s.end}
	}
	return reflect.ValueOf(s).Elem().Interface()
}

// option is a lane option under test, applied by pairOf to each inner rule.
type option struct {
	kind string        // "penalty", "ban", "clock"
	d    time.Duration // the ban's duration or the clock's tick
}

// pairOf is the bare inner rule and the inner rule with the option, each on a
// fresh state.
func pairOf[S any](name string, inner Chargeable[S], o option) (bare, wrapped subject) {
	bare = subjectOf(name, inner)
	switch o.kind {
	case "penalty":
		wrapped = subjectOf[S](name+" with penalty", WithPenalty(inner))
	case "ban":
		wrapped = subjectOf[BanState[S]](name+" with ban", must(WithBan(inner, o.d)))
	case "clock":
		wrapped = subjectOf[S](name+" with clock", must(WithClock(inner, o.d)))
	default:
		panic(o.kind)
	}
	return bare, wrapped
}

// sixPairs is pairOf for each of the six per-key limiters built from p, and
// AlignedFixedWindow aligned to the first request.
func sixPairs(p Policy, o option) [][2]subject {
	var out [][2]subject
	add := func(b, w subject) { out = append(out, [2]subject{b, w}) }
	add(pairOf[FixedWindowState]("fixed window", must(NewFixedWindow(p)), o))
	add(pairOf[SlidingLogState]("sliding log", must(NewSlidingLog(p)), o))
	add(pairOf[SlidingWindowCounterState]("sliding window counter", must(NewSlidingWindowCounter(p)), o))
	add(pairOf[TokenBucketState]("token bucket", must(NewTokenBucket(p)), o))
	add(pairOf[GCRAState]("gcra", must(NewGCRA(p)), o))
	add(pairOf[LeakyBucketState]("leaky bucket", must(NewLeakyBucket(p)), o))
	add(pairOf[AlignedFixedWindowState]("fixed window aligned to the first request", must(NewAlignedFixedWindow(p, AlignFirst)), o))
	return out
}

// honoured checks that a refusal d of (at, cost) by sub's state before it is
// honoured: the retry at at+RetryAfter is admitted and one 1ns earlier refused.
func honoured(t *testing.T, before subject, call fmt.Stringer, at time.Duration, cost int64, d Decision) bool {
	t.Helper()
	if d.RetryAfter == Never {
		return true
	}
	if d.RetryAfter <= 0 {
		t.Errorf("%s: RetryAfter = %v on a refusal, want > 0", call, d.RetryAfter)
		return false
	}
	if got := before.fork().decide(at+d.RetryAfter, cost); !got.Admitted() {
		t.Errorf("%s: RetryAfter %v, but the retry at %s = %v", call, d.RetryAfter, t0plus(at+d.RetryAfter), got.Verdict)
		return false
	}
	if got := before.fork().decide(at+d.RetryAfter-1, cost); got.Admitted() {
		t.Errorf("%s: RetryAfter %v, but a retry 1ns earlier is admitted too", call, d.RetryAfter)
		return false
	}
	return true
}

// checkPeekAndEviction holds a wrapped rule to Peek (Decide's answer with no
// effect) and to Idle (a Keyed-style twin that drops idle states answers as
// one that never does).
func checkPeekAndEviction(t *testing.T, w subject, mk func() subject, reqs []request) bool {
	t.Helper()
	evicting := mk()
	for i, r := range reqs {
		call := lazy("%s request %d: Decide(%s, cost %d)", w.name, i, t0offset(r.at), r.cost)
		before := w.snap()
		peeked := w.peek(r.at, r.cost)
		if after := w.snap(); !reflect.DeepEqual(before, after) {
			t.Errorf("%s: Peek changed the state from %+v to %+v", call, before, after)
			return false
		}
		if i%5 == 2 && evicting.idle(r.at) {
			evicting = mk()
		}
		d := w.decide(r.at, r.cost)
		if d != peeked {
			t.Errorf("%s = %+v, Peek said %+v", call, d, peeked)
			return false
		}
		if e := evicting.decide(r.at, r.cost); e != d {
			t.Errorf("%s = %+v after an eviction, %+v without", call, e, d)
			return false
		}
	}
	return true
}

// With Penalty a key admits only what it admits without, on the same arrivals,
// for each of the six limiters: as generated (times never decrease) and with
// every third pair of neighbours swapped (time going backwards). The fixed
// window aligned to the first request is left out: see its counter-example.
func TestPenaltyNeverAdmitsMore(t *testing.T) {
	for _, backwards := range []bool{false, true} {
		quickCheck(t, func(a arrivals) bool {
			if backwards {
				for i := 1; i < len(a.reqs); i += 3 {
					a.reqs[i].at, a.reqs[i-1].at = a.reqs[i-1].at, a.reqs[i].at
				}
			}
			for _, pair := range sixPairs(a.p, option{kind: "penalty"})[:6] {
				bare, pen := pair[0], pair[1]
				for i, r := range a.reqs {
					db, dp := bare.decide(r.at, r.cost), pen.decide(r.at, r.cost)
					if dp.Admitted() && !db.Admitted() {
						t.Errorf("%s %+v request %d: Decide(%s, cost %d) admitted with penalty, refused without", pen.name, a.p, i, t0plus(r.at), r.cost)
						return false
					}
				}
			}
			return true
		})
	}
}

// A refusal under Penalty is answered by the charged state: its RetryAfter is
// honoured exactly, the refused request counted.
func TestPenaltyRefusalsHonoured(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		for _, pair := range sixPairs(a.p, option{kind: "penalty"}) {
			pen := pair[1]
			for i, r := range a.reqs {
				before := pen.fork()
				d := pen.decide(r.at, r.cost)
				if d.Admitted() {
					continue
				}
				// After the charge the state is pen's; the retry is asked of a copy of it.
				call := lazy("%s %+v request %d: Decide(%s, cost %d)", pen.name, a.p, i, t0offset(r.at), r.cost)
				if !honoured(t, pen, call, r.at, r.cost, d) {
					return false
				}
				if reflect.DeepEqual(before.snap(), pen.snap()) {
					t.Errorf("%s: refused with penalty but nothing was charged", call)
					return false
				}
			}
		}
		return true
	})
}

func TestPenaltyPeekAndEviction(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		for k := range sixPairs(a.p, option{kind: "penalty"}) {
			mk := func() subject { return sixPairs(a.p, option{kind: "penalty"})[k][1] }
			if !checkPeekAndEviction(t, mk(), mk, a.reqs) {
				return false
			}
		}
		return true
	})
}

// A steady client sending cost 1 every T/2 (twice the rate) to a full bucket of
// burst B: with penalty the i-th request (from 0) finds i charged and i/2
// refilled, a deficit of i/2 tokens, so it is admitted iff i/2 ≤ B−1: exactly
// the first 2B−1 requests and none after. Without penalty the deficit counts
// admissions only: after the first 2B−1, every other request (i even) finds
// exactly B−1 missing and is admitted.
func TestPenaltyLocksOutATwiceTheRateClient(t *testing.T) {
	p := Policy{Limit: 10, Window: time.Second, Burst: 5} // T = 100ms
	const n, b = 200, 5
	for _, tc := range []struct {
		name        string
		bare, inner subject
	}{
		{"token bucket", subjectOf[TokenBucketState]("tb", must(NewTokenBucket(p))), subjectOf[TokenBucketState]("tb", WithPenalty(must(NewTokenBucket(p))))},
		{"gcra", subjectOf[GCRAState]("gcra", must(NewGCRA(p))), subjectOf[GCRAState]("gcra", WithPenalty(must(NewGCRA(p))))},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for i := range n {
				at := time.Duration(i) * 50 * ms
				wantPen := i <= 2*b-2
				wantBare := wantPen || i%2 == 0
				if got := tc.inner.decide(at, 1).Admitted(); got != wantPen {
					t.Fatalf("with penalty: request %d Decide(%s, cost 1) admitted = %v, want %v", i, t0plus(at), got, wantPen)
				}
				if got := tc.bare.decide(at, 1).Admitted(); got != wantBare {
					t.Fatalf("without penalty: request %d Decide(%s, cost 1) admitted = %v, want %v", i, t0plus(at), got, wantBare)
				}
			}
		})
	}
}

// Ban steps, derived by hand: 1 per second, burst 1, a 10s ban.
func TestBanSteps(t *testing.T) {
	tb := must(WithBan(Chargeable[TokenBucketState](must(NewTokenBucket(Policy{Limit: 1, Window: time.Second}))), 10*time.Second))
	runSteps[BanState[TokenBucketState]](t, tb, steps(
		admit(0),
		refuse(100*ms, 10*time.Second),     // inner wait 900ms < the ban: the ban's end
		refuse(5*time.Second, 5100*ms),     // banned: end − now, though the bucket is full by now
		refuse(10100*ms-1, 1),              // the last banned nanosecond
		admit(10100*ms),                    // the ban is over and the bucket full
		refuse(10100*ms, 10*time.Second),   // a new ban from 10.1s
		refuse(20100*ms, Never).costs(2),   // cost above burst: Never, and banned again
		refuse(30100*ms-1, Never).costs(2), // still Never inside that ban
		refuse(30100*ms-1, 1),              // a unit request: the ban's end
		admit(30100*ms),                    // free
	))
	// The inner rule's wait is the longer: a fixed window of 60s, banned 10s.
	fw := must(WithBan(Chargeable[FixedWindowState](must(NewFixedWindow(Policy{Limit: 1, Window: time.Minute}))), 10*time.Second))
	runSteps[BanState[FixedWindowState]](t, fw, steps(
		admit(0),
		refuse(time.Second, 59*time.Second), // the window ends at 60s, after the ban
		refuse(5*time.Second, 55*time.Second),
		refuse(30*time.Second, 30*time.Second), // ban over at 11s, refused by the window: banned again to 40s
		refuse(39*time.Second, 21*time.Second),
		admit(time.Minute),
	))
}

// Ban on arbitrary arrivals, each inner rule: after a refusal at t every
// request in [t, t+D) is refused and leaves the state as it was (the inner
// state is not touched); RetryAfter is honoured exactly; Peek and Idle hold.
func TestBanProperties(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		d := max(a.p.Window/3, 1)
		o := option{kind: "ban", d: d}
		for k, pair := range sixPairs(a.p, o) {
			ban := pair[1]
			banEnd := time.Duration(-1)
			for i, r := range a.reqs {
				call := lazy("%s %+v request %d: Decide(%s, cost %d)", ban.name, a.p, i, t0offset(r.at), r.cost)
				snap := ban.snap()
				dec := ban.decide(r.at, r.cost)
				if r.at < banEnd {
					if dec.Admitted() {
						t.Errorf("%s admitted inside the ban ending at %v", call, banEnd)
						return false
					}
					if after := ban.snap(); !reflect.DeepEqual(snap, after) {
						t.Errorf("%s inside the ban changed the state from %+v to %+v", call, snap, after)
						return false
					}
					if dec.RetryAfter < banEnd-r.at {
						t.Errorf("%s inside the ban: RetryAfter %v, the ban ends in %v", call, dec.RetryAfter, banEnd-r.at)
						return false
					}
				} else if !dec.Admitted() {
					banEnd = r.at + d
				}
				if !dec.Admitted() && !honoured(t, ban, call, r.at, r.cost, dec) { // the retry meets the ban
					return false
				}
			}
			mk := func() subject { return sixPairs(a.p, o)[k][1] }
			if !checkPeekAndEviction(t, mk(), mk, a.reqs) {
				return false
			}
		}
		return true
	})
}

// Ban with Penalty inside: the refusal that starts the ban is charged, the
// banned ones are not.
func TestBanAnswersBeforePenalty(t *testing.T) {
	p := Policy{Limit: 1, Window: time.Second}
	r := must(WithBan(Chargeable[TokenBucketState](WithPenalty(must(NewTokenBucket(p)))), 2*time.Second))
	runSteps[BanState[TokenBucketState]](t, r, steps(
		admit(0),
		refuse(0, 2*time.Second),         // charged: a deficit of 2 tokens, 2s to refill one; the ban ends at 2s
		refuse(time.Second, time.Second), // banned, not charged
		refuse(1500*ms, 500*ms),
		admit(2*time.Second), // 2 tokens refilled since 0: one there at 2s (a charged banned request would have cost another second)
	))
}

// Clock on arbitrary arrivals and ticks, each inner rule: the answer at now is
// the inner answer at t = ⌊now/tick⌋×tick, verdict, Limit and Remaining alike,
// durations moved to the first tick at or after t+x, measured from now; and the
// RetryAfter so moved is honoured exactly by the clocked rule.
func TestClockIsTruncatedInner(t *testing.T) {
	ticks := []time.Duration{1, 3, 7, time.Microsecond, time.Millisecond, 999_983, time.Second}
	quickCheck(t, func(a arrivals) bool {
		tick := ticks[len(a.reqs)%len(ticks)]
		for _, pair := range sixPairs(a.p, option{kind: "clock", d: tick}) {
			bare, clk := pair[0], pair[1]
			for i, r := range a.reqs {
				call := lazy("%s tick %v %+v request %d: Decide(%s, cost %d)", clk.name, tick, a.p, i, t0offset(r.at), r.cost)
				tr := r.at / tick * tick
				before := clk.fork()
				want, got := bare.decide(tr, r.cost), clk.decide(r.at, r.cost)
				moved := func(x time.Duration) time.Duration {
					if x == 0 || x == Never {
						return x
					}
					u := (tr + x + tick - 1) / tick * tick
					return u - r.at
				}
				want.RetryAfter, want.Reset, want.Delay = moved(want.RetryAfter), moved(want.Reset), moved(want.Delay)
				if got != want {
					t.Errorf("%s = %+v, want the inner answer at %s moved: %+v", call, got, t0plus(tr), want)
					return false
				}
				if got.RetryAfter < 0 || got.Reset < 0 || got.Delay < 0 {
					t.Errorf("%s = %+v: a negative duration", call, got)
					return false
				}
				if !got.Admitted() && !honoured(t, before, call, r.at, r.cost, got) {
					return false
				}
			}
		}
		return true
	})
}

func TestClockPeekAndEviction(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		o := option{kind: "clock", d: time.Millisecond}
		for k := range sixPairs(a.p, o) {
			mk := func() subject { return sixPairs(a.p, o)[k][1] }
			if !checkPeekAndEviction(t, mk(), mk, a.reqs) {
				return false
			}
		}
		return true
	})
}

// Clock steps, by hand: 1 per second, burst 1, a whole-second clock (Kong, Redis).
func TestClockSteps(t *testing.T) {
	r := must(WithClock(Chargeable[TokenBucketState](must(NewTokenBucket(Policy{Limit: 1, Window: time.Second}))), time.Second))
	runSteps[TokenBucketState](t, r, steps(
		admit(300*ms),        // seen at 0
		refuse(999*ms, 1*ms), // seen at 0: a token at 1s, which the clock reads at 1s
		admit(1999*ms),       // seen at 1s: the token is there
	))
	r = must(WithClock(Chargeable[TokenBucketState](must(NewTokenBucket(Policy{Limit: 1, Window: time.Second}))), time.Second))
	runSteps[TokenBucketState](t, r, steps(
		admit(0),
		admit(1500*ms),          // seen at 1s
		refuse(1700*ms, 300*ms), // seen at 1s, token at 2s: 300ms from 1.7s
		admit(2*time.Second),
	))
	// A leaky bucket's delay on a 1ms clock: T = 1/3 s, releases at 333.33…ms
	// after the last; on the clock at the first whole ms at or after.
	lb := must(WithClock(Chargeable[LeakyBucketState](must(NewLeakyBucket(Policy{Limit: 3, Window: time.Second, Burst: 2}))), time.Millisecond))
	runSteps[LeakyBucketState](t, lb, steps(
		admit(100*time.Microsecond),                                // seen at 0, released at once; next free at 333.333…ms
		delayed(200*time.Microsecond, 334*ms-200*time.Microsecond), // released at 334ms on the clock
	))
}

// Composition: penalty inside ban inside clock.
func TestOptionsCompose(t *testing.T) {
	tb := must(NewTokenBucket(Policy{Limit: 1, Window: time.Second}))
	ban := must(WithBan(Chargeable[TokenBucketState](WithPenalty(tb)), 5*time.Second))
	r := must(WithClock(Chargeable[BanState[TokenBucketState]](ban), time.Second))
	runSteps[BanState[TokenBucketState]](t, r, steps(
		admit(500*ms),           // seen at 0
		refuse(900*ms, 4100*ms), // seen at 0: penalised (2 tokens missing: 2s) and banned to 5s; 5s − 0.9s
		refuse(4999*ms, 1*ms),   // seen at 4s: banned until 5s
		admit(5*time.Second),    // seen at 5s: the ban is over and the bucket has refilled
	))
	// A wait on a 1ms clock: 10 per second, burst 1, waits up to 250ms.
	w := must(WithClock(Chargeable[TokenBucketState](must(WithWait(Chargeable[TokenBucketState](must(NewTokenBucket(Policy{Limit: 10, Window: time.Second, Burst: 1}))), 250*ms))), ms))
	runSteps[TokenBucketState](t, w, steps(
		admit(500*time.Microsecond),                            // seen at 0
		delayed(700*time.Microsecond, 99300*time.Microsecond),  // seen at 0: its turn at 100ms on the clock
		delayed(900*time.Microsecond, 199100*time.Microsecond), // two tokens in debt at 0: its turn at 200ms
		refuse(900*time.Microsecond, 299100*time.Microsecond),  // three: 300ms on the clock, beyond the wait
	))
}

// The one counter-example found to "Penalty never admits more": a fixed window
// aligned to the first request, and a request no window can hold (cost >
// Limit). Charged, it opens a window where the bare rule opens none, and the
// two windows fall out of phase: 1 per second, a cost-2 request at 0 opens
// [0, 1s) under Penalty only; at 0.5s the bare rule opens [0.5s, 1.5s) and
// admits, Penalty refuses; at 1.2s Penalty opens [1.2s, 2.2s) and admits, the
// bare rule is still full. With costs ≤ Limit both open the same windows (a
// request finding none open is admitted by both) and the property holds.
func TestPenaltyAlignFirstCounterExample(t *testing.T) {
	p := Policy{Limit: 1, Window: time.Second}
	bare := must(NewAlignedFixedWindow(p, AlignFirst))
	runSteps[AlignedFixedWindowState](t, bare, steps(refuse(0, Never).costs(2), admit(500*ms), refuse(1200*ms, 300*ms)))
	runSteps[AlignedFixedWindowState](t, WithPenalty(Chargeable[AlignedFixedWindowState](bare)), steps(refuse(0, Never).costs(2), refuse(500*ms, 500*ms), admit(1200*ms)))
}
