package algorithms

import (
	mrand "math/rand/v2"
	"strings"
	"testing"
	"time"

	"golang.org/x/time/rate"
)

func TestWithWaitRefusesWindowCountersAndQueues(t *testing.T) {
	p := Policy{Limit: 10, Window: time.Second}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"fixed window", errOf(WithWait(Chargeable[FixedWindowState](must(NewFixedWindow(p))), time.Second)), "window counter"},
		{"aligned fixed window", errOf(WithWait(Chargeable[AlignedFixedWindowState](must(NewAlignedFixedWindow(p, AlignFirst))), time.Second)), "window counter"},
		{"sliding window counter", errOf(WithWait(Chargeable[SlidingWindowCounterState](must(NewSlidingWindowCounter(p))), time.Second)), "window counter"},
		{"sliding log", errOf(WithWait(Chargeable[SlidingLogState](must(NewSlidingLog(p))), time.Second)), "sliding log"},
		{"leaky bucket", errOf(WithWait(Chargeable[LeakyBucketState](must(NewLeakyBucket(p))), time.Second)), "queues already"},
		{"penalty", errOf(WithWait(Chargeable[TokenBucketState](WithPenalty(must(NewTokenBucket(p)))), time.Second)), "go around a wait"},
		{"ban", errOf(WithWait(Chargeable[BanState[TokenBucketState]](must(WithBan(must(NewTokenBucket(p)), time.Second))), time.Second)), "go around a wait"},
		{"zero wait", errOf(WithWait(Chargeable[TokenBucketState](must(NewTokenBucket(p))), 0)), "must be positive"},
	} {
		if tc.err == nil || !strings.HasPrefix(tc.err.Error(), "wait: ") || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: WithWait error = %v, want one with %q", tc.name, tc.err, tc.want)
		}
	}
	for name, err := range map[string]error{
		"token bucket": errOf(WithWait(Chargeable[TokenBucketState](must(NewTokenBucket(p))), time.Second)),
		"gcra":         errOf(WithWait(Chargeable[GCRAState](must(NewGCRA(p))), time.Second)),
		"start gcra":   errOf(WithWait(Chargeable[GCRAState](must(StartAt(Chargeable[GCRAState](must(NewGCRA(p))), 0, Never))), time.Second)),
		"wait in wait": errOf(WithWait(Chargeable[TokenBucketState](must(WithWait(Chargeable[TokenBucketState](must(NewTokenBucket(p))), time.Second))), time.Second)),
	} {
		if err != nil {
			t.Errorf("%s: WithWait error = %v, want none", name, err)
		}
	}
}

func errOf[R any](_ R, err error) error { return err }

// Wait steps, by hand: 10 per second (T = 100ms), burst 2, waits up to 250ms.
func TestWaitSteps(t *testing.T) {
	w := must(WithWait(Chargeable[TokenBucketState](must(NewTokenBucket(Policy{Limit: 10, Window: time.Second, Burst: 2}))), 250*ms))
	runSteps[TokenBucketState](t, w, steps(
		admit(0), admit(0), // the burst
		delayed(0, 100*ms),        // one token into debt: its turn at 100ms
		delayed(0, 200*ms),        // two: 200ms
		refuse(0, 300*ms),         // three would wait 300ms > 250ms: refused, nothing charged
		delayed(50*ms, 250*ms),    // still two in debt at 0; at 50ms the third's turn is 300ms: 250ms, the most
		refuse(50*ms, 350*ms),     // the fourth's turn at 400ms
		refuse(0, Never).costs(3), // above the burst
		admit(500*ms),             // all three reserved by 300ms; at 500ms two tokens are there
	))
}

// Wait on arbitrary arrivals, TokenBucket and GCRA (also started empty): no
// Delay exceeds Max; a delayed request is one the bare rule, on the same state,
// would refuse with RetryAfter = Delay, so it admits it at now+Delay and
// refuses it 1ns earlier; a refusal is the bare rule's, with its state (which
// changes nothing but a new key's starting level);
// TokenBucket and GCRA agree; Peek and eviction hold.
func TestWaitProperties(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		maxWait := max(a.p.Window/time.Duration(a.p.Limit)*time.Duration(len(a.reqs)%5), 1)
		mkTB := func(start int64) subject {
			var tb Chargeable[TokenBucketState] = must(NewTokenBucket(a.p))
			if start >= 0 {
				tb = must(StartAt(tb, start, keepOf(a)))
			}
			return subjectOf[TokenBucketState]("token bucket", must(WithWait(tb, maxWait)))
		}
		mkGCRA := func(start int64) subject {
			var g Chargeable[GCRAState] = must(NewGCRA(a.p))
			if start >= 0 {
				g = must(StartAt(g, start, keepOf(a)))
			}
			return subjectOf[GCRAState]("gcra", must(WithWait(g, maxWait)))
		}
		for _, start := range []int64{-1, 0, a.p.EffectiveBurst() / 2} {
			tb, g := mkTB(start), mkGCRA(start)
			// bare shares tb's state: the bare rule asked about the same key.
			for i, r := range a.reqs {
				call := lazy("wait %v start %d %+v request %d: Decide(%s, cost %d)", maxWait, start, a.p, i, t0offset(r.at), r.cost)
				before := tb.snap()
				bare := subjectAt[TokenBucketState]("bare", bareRule(a.p, start, keepOf(a)), ptrTo(before.(TokenBucketState)))
				asked := bare.fork()
				want := asked.decide(r.at, r.cost)
				d, dg := tb.decide(r.at, r.cost), g.decide(r.at, r.cost)
				if d != dg {
					t.Errorf("%s: token bucket %+v, gcra %+v", call, d, dg)
					return false
				}
				switch d.Verdict {
				case Delay:
					if d.Delay > maxWait || d.Delay <= 0 {
						t.Errorf("%s: Delay %v, want in (0, %v]", call, d.Delay, maxWait)
						return false
					}
					if want.Verdict != Refuse || want.RetryAfter != d.Delay {
						t.Errorf("%s: Delay %v, the bare rule says %+v", call, d.Delay, want)
						return false
					}
					if !honoured(t, asked, call, r.at, r.cost, want) { // asked: the refused state, a new key at its level
						return false
					}
				case Refuse:
					if d != want {
						t.Errorf("%s = %+v, the bare rule says %+v", call, d, want)
						return false
					}
					if after, bareAfter := tb.snap(), asked.snap(); after != bareAfter {
						t.Errorf("%s refused and left the state %+v, the bare rule %+v", call, after, bareAfter)
						return false
					}
				case Admit:
					if want.Verdict != Admit {
						t.Errorf("%s admitted, the bare rule says %+v", call, want)
						return false
					}
				}
			}
			if !checkPeekAndEviction(t, mkTB(start), func() subject { return mkTB(start) }, a.reqs) {
				return false
			}
		}
		return true
	})
}

// keepOf picks a Keep for a case: 0, the window, or Never.
func keepOf(a arrivals) time.Duration { return []time.Duration{0, a.p.Window, Never}[len(a.reqs)%3] }

func bareRule(p Policy, start int64, keep time.Duration) Chargeable[TokenBucketState] {
	var tb Chargeable[TokenBucketState] = must(NewTokenBucket(p))
	if start >= 0 {
		tb = must(StartAt(tb, start, keep))
	}
	return tb
}

func ptrTo[S any](s S) *S { return &s }

// reserveCase is dyadicCase with a power-of-two Limit no larger than the
// window's 2^a ticks: then T = Window/Limit is a whole number of ticks
// (1953125ns × 2^k), every token count a multiple of 2^−a, every wait a whole
// number of ticks, and x/time/rate's float wait Duration(1e9 × tokens/rate)
// exact: its truncation and TokenBucket's rounding up agree.
func reserveCase(limit, window, burst uint64, data []byte) (Policy, []request) {
	p, reqs := dyadicCase(limit, window, burst, data)
	a := uint64(0)
	for tick<<a < p.Window {
		a++
	}
	p.Limit = 1 << (limit % (a + 1))
	return p, reqs
}

// checkAgainstReserveN holds WithWait(Never) on a TokenBucket to x/time/rate's
// Limiter.ReserveN: admitted at once iff the reservation's delay is 0, delayed
// by exactly its delay, refused iff the reservation is not OK (n > burst).
func checkAgainstReserveN(t *testing.T, p Policy, reqs []request, exact bool) {
	w := must(WithWait(Chargeable[TokenBucketState](must(NewTokenBucket(p))), Never))
	lim := rate.NewLimiter(rate.Limit(float64(p.Limit)/p.Window.Seconds()), int(p.Burst))
	var s TokenBucketState
	for i, r := range reqs {
		res := lim.ReserveN(t0.Add(r.at), int(r.cost))
		d := w.Decide(&s, r.at, r.cost)
		call := lazy("%+v request %d: Decide(t0+%v, cost %d) = %v (Delay %v)", p, i, r.at, r.cost, d.Verdict, d.Delay)
		if !res.OK() {
			if d.Verdict != Refuse {
				t.Fatalf("%s, x/time/rate ReserveN not OK", call)
			}
			continue
		}
		want := res.DelayFrom(t0.Add(r.at))
		got := d.Delay
		if d.Verdict == Refuse {
			t.Fatalf("%s, x/time/rate ReserveN delay %v", call, want)
		}
		if (d.Verdict == Admit) != (want == 0) {
			t.Fatalf("%s, x/time/rate ReserveN delay %v", call, want)
		}
		// On other dyadic rates x/time/rate truncates a float wait that
		// TokenBucket rounds up: it is at most 1ns shorter.
		if got != want && (exact || got-want != 1) {
			t.Fatalf("%s, x/time/rate ReserveN delay %v", call, want)
		}
	}
}

func TestWaitMatchesXTimeRateReserveN(t *testing.T) {
	r := mrand.New(mrand.NewPCG(21, 22))
	for i := range 2000 {
		data := make([]byte, 4*r.IntN(300))
		for j := range data {
			data[j] = byte(r.Uint32())
		}
		l, w, b := r.Uint64(), r.Uint64(), r.Uint64()
		if i%2 == 0 {
			p, reqs := reserveCase(l, w, b, data)
			checkAgainstReserveN(t, p, reqs, true)
		} else {
			p, reqs := dyadicCase(l, w, b, data)
			checkAgainstReserveN(t, p, reqs, false)
		}
		if t.Failed() {
			return
		}
	}
}

func FuzzWaitMatchesXTimeRateReserveN(f *testing.F) {
	addFuzzSeeds(f)
	f.Fuzz(func(t *testing.T, limit, window, burst uint64, data []byte) {
		p, reqs := reserveCase(limit, window, burst, data)
		checkAgainstReserveN(t, p, reqs, true)
	})
}

func TestStartAtErrors(t *testing.T) {
	p := Policy{Limit: 10, Window: time.Second, Burst: 4}
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"fixed window", errOf(StartAt(Chargeable[FixedWindowState](must(NewFixedWindow(p))), 0, Never)), "no level"},
		{"leaky bucket", errOf(StartAt(Chargeable[LeakyBucketState](must(NewLeakyBucket(p))), 0, Never)), "no level"},
		{"above burst", errOf(StartAt(Chargeable[TokenBucketState](must(NewTokenBucket(p))), 5, Never)), "between 0 (empty) and the burst 4 (full), got 5"},
		{"negative", errOf(StartAt(Chargeable[GCRAState](must(NewGCRA(p))), -1, Never)), "got -1"},
	} {
		if tc.err == nil || !strings.HasPrefix(tc.err.Error(), "start: ") || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: StartAt error = %v, want one with %q", tc.name, tc.err, tc.want)
		}
	}
}

// StartAt steps, by hand: 10 per second (T = 100ms), burst 5, starting empty.
func TestStartAtSteps(t *testing.T) {
	p := Policy{Limit: 10, Window: time.Second, Burst: 5}
	table := steps(
		refuse(time.Second, 100*ms), // a new key, empty at 1s: a token at 1.1s
		admit(1100*ms),              // empty again at 1.1s: full at 1.6s
		refuse(1150*ms, 50*ms),
	)
	for _, tc := range []struct {
		keep     time.Duration
		idleFrom time.Duration // when the key is forgotten
	}{{0, 1600*ms + 1}, {200 * ms, 1800*ms + 1}, {Never, Never}} {
		for name, run := range map[string]func() func(time.Duration) bool{
			"token bucket": func() func(time.Duration) bool {
				st := must(StartAt(Chargeable[TokenBucketState](must(NewTokenBucket(p))), 0, tc.keep))
				var s TokenBucketState
				runStepsOn(t, st, &s, table)
				return func(now time.Duration) bool { return st.Idle(&s, now) }
			},
			"gcra": func() func(time.Duration) bool {
				st := must(StartAt(Chargeable[GCRAState](must(NewGCRA(p))), 0, tc.keep))
				var s GCRAState
				runStepsOn(t, st, &s, table)
				return func(now time.Duration) bool { return st.Idle(&s, now) }
			},
		} {
			idle := run()
			if tc.idleFrom == Never {
				if idle(time.Hour) {
					t.Errorf("%s keep %v: Idle(t0+1h) = true, want false: never forgotten", name, tc.keep)
				}
				continue
			}
			if idle(tc.idleFrom - 1) {
				t.Errorf("%s keep %v: Idle(%s) = true, want false", name, tc.keep, t0plus(tc.idleFrom-1))
			}
			if !idle(tc.idleFrom) {
				t.Errorf("%s keep %v: Idle(%s) = false, want true: full for keep", name, tc.keep, t0plus(tc.idleFrom))
			}
		}
	}
	// Forgotten once full (keep 0): the key starts at 3 again; kept: it is full.
	forget := must(StartAt(Chargeable[TokenBucketState](must(NewTokenBucket(p))), 3, 0))
	runSteps[TokenBucketState](t, forget, steps(
		repeat(3, admit(0)), // starts with 3
		refuse(0, 100*ms),
		repeat(3, admit(10*time.Second)), // full since 0.5s: forgotten, so 3 again
		refuse(10*time.Second, 100*ms),
		refuse(10*time.Second, 500*ms).costs(5), // empty: full at 10.5s
		admit(10500*ms).costs(5),                // at that nanosecond it is still full
		refuse(20*time.Second, 200*ms).costs(5), // forgotten: 3 tokens, 2 more in 200ms
		refuse(20200*ms-1, 1).costs(5),
		admit(20200*ms).costs(5), // full at exactly this nanosecond: not forgotten yet
	))
	kept := must(StartAt(Chargeable[TokenBucketState](must(NewTokenBucket(p))), 3, Never))
	runSteps[TokenBucketState](t, kept, steps(
		repeat(3, admit(0)),
		refuse(0, 100*ms),
		repeat(5, admit(10*time.Second)), // full
		refuse(10*time.Second, 100*ms),
		refuse(10*time.Second, 500*ms).costs(5), // 5 tokens in 500ms
	))
}

// runStepsOn is runSteps on a given state.
func runStepsOn[S any](t *testing.T, alg Algorithm[S], s *S, table []step) {
	t.Helper()
	for i, st := range table {
		d := alg.Decide(s, st.at, st.cost)
		call := lazy("step %d: Decide(%s, cost %d)", i, t0offset(st.at), st.cost)
		if d.Verdict != st.verdict || (st.verdict == Refuse && d.RetryAfter != st.retry) || (st.verdict == Delay && d.Delay != st.delay) {
			t.Fatalf("%s = %v (RetryAfter %v, Delay %v), want %v (%v, %v)", call, d.Verdict, d.RetryAfter, d.Delay, st.verdict, st.retry, st.delay)
		}
	}
}

// StartAt on arbitrary arrivals: a never-seen key's first request of cost c is
// admitted iff c ≤ N; StartAt(Burst) is the bare bucket; TokenBucket and GCRA
// agree at every level; Peek and eviction hold (a key refilled to full is idle
// and starts at N again either way).
func TestStartAtProperties(t *testing.T) {
	quickCheck(t, func(a arrivals) bool {
		burst := a.p.EffectiveBurst()
		keep := []time.Duration{0, a.p.Window, Never}[len(a.reqs)%3]
		for _, n := range []int64{0, 1, burst / 2, burst} {
			n = min(n, burst)
			mkTB := func() subject {
				return subjectOf[TokenBucketState]("token bucket", must(StartAt(Chargeable[TokenBucketState](must(NewTokenBucket(a.p))), n, keep)))
			}
			tb, g := mkTB(), subjectOf[GCRAState]("gcra", must(StartAt(Chargeable[GCRAState](must(NewGCRA(a.p))), n, keep)))
			bare := subjectOf[TokenBucketState]("bare", must(NewTokenBucket(a.p)))
			for i, r := range a.reqs {
				call := lazy("start %d keep %v %+v request %d: Decide(%s, cost %d)", n, keep, a.p, i, t0offset(r.at), r.cost)
				if i == 0 {
					if first := mkTB().decide(r.at, r.cost); first.Admitted() != (r.cost <= n) {
						t.Errorf("%s on a new key: admitted = %v, want %v", call, first.Admitted(), r.cost <= n)
						return false
					}
				}
				d, dg, db := tb.decide(r.at, r.cost), g.decide(r.at, r.cost), bare.decide(r.at, r.cost)
				if d != dg {
					t.Errorf("%s: token bucket %+v, gcra %+v", call, d, dg)
					return false
				}
				if n == burst && d != db {
					t.Errorf("%s: start full %+v, bare %+v", call, d, db)
					return false
				}
			}
			if !checkPeekAndEviction(t, mkTB(), mkTB, a.reqs) {
				return false
			}
		}
		return true
	})
}
