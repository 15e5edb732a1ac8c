package algorithms

import (
	"testing"
	"time"
)

// Expected values in this file are derived by hand from the doc comments.

type promiseStep struct {
	now                 time.Duration
	cost                int64
	verdict             Verdict
	delay, retry, reset time.Duration
	remaining           int64
}

func checkPromiseSteps(t *testing.T, name string, decide func(now time.Duration, cost int64) Decision, steps []promiseStep) {
	t.Helper()
	for i, st := range steps {
		d := decide(st.now, st.cost)
		if d.Verdict != st.verdict || d.Delay != st.delay || d.RetryAfter != st.retry || d.Reset != st.reset || d.Remaining != st.remaining {
			t.Errorf("%s step %d: Decide(%v, %d) = {verdict %v delay %v retry %v reset %v remaining %d}, want {%v %v %v %v %d}",
				name, i, st.now, st.cost, d.Verdict, d.Delay, d.RetryAfter, d.Reset, d.Remaining,
				st.verdict, st.delay, st.retry, st.reset, st.remaining)
		}
		if !d.RetryAfterExact {
			t.Errorf("%s step %d: RetryAfterExact = false, want true", name, i)
		}
	}
}

// FixedWindow, Limit 3 per 100ns: count+cost ≤ Limit; RetryAfter/Reset = next window start − now.
func TestPromiseFixedWindowBoundaries(t *testing.T) {
	fw, err := NewFixedWindow(Policy{Limit: 3, Window: 100})
	if err != nil {
		t.Fatal(err)
	}
	var s FixedWindowState
	checkPromiseSteps(t, "fixed", func(now time.Duration, cost int64) Decision { return fw.Decide(&s, now, cost) }, []promiseStep{
		{now: 0, cost: 4, verdict: Refuse, retry: Never, remaining: 3, reset: 0}, // cost > Limit, nothing counted
		{now: 10, cost: 2, verdict: Admit, remaining: 1, reset: 90},
		{now: 10, cost: 1, verdict: Admit, remaining: 0, reset: 90}, // count+cost == Limit
		{now: 99, cost: 1, verdict: Refuse, retry: 1, remaining: 0, reset: 1},
		{now: 100, cost: 1, verdict: Admit, remaining: 2, reset: 100}, // exactly at the boundary: new window
		{now: 150, cost: 3, verdict: Refuse, retry: 50, remaining: 2, reset: 50},
		{now: 50, cost: 2, verdict: Admit, remaining: 0, reset: 150}, // backwards: counts in window [100,200)
		{now: 199, cost: 1, verdict: Refuse, retry: 1, remaining: 0, reset: 1},
	})
}

func TestPromiseFixedWindowIdle(t *testing.T) {
	fw, _ := NewFixedWindow(Policy{Limit: 3, Window: 100})
	var s FixedWindowState
	if !fw.Idle(&s, 0) {
		t.Error("Idle(zero state, 0) = false, want true")
	}
	fw.Decide(&s, 0, 4) // refused: counts nothing
	if !fw.Idle(&s, 1) {
		t.Error("Idle after a refusal only = false, want true")
	}
	fw.Decide(&s, 195, 1) // window [100,200)
	for _, c := range []struct {
		now  time.Duration
		want bool
	}{{150, false}, {199, false}, {200, true}, {201, true}} {
		if got := fw.Idle(&s, c.now); got != c.want {
			t.Errorf("Idle(%v) after admission in [100,200) = %v, want %v", c.now, got, c.want)
		}
	}
}

// TokenBucket, Limit 3 per 10ns, Burst 2: T = 10/3 ns, a token is 10 units, each ns refills 3.
func TestPromiseTokenBucketExactRefill(t *testing.T) {
	tb, err := NewTokenBucket(Policy{Limit: 3, Window: 10, Burst: 2})
	if err != nil {
		t.Fatal(err)
	}
	var s TokenBucketState
	checkPromiseSteps(t, "tb", func(now time.Duration, cost int64) Decision { return tb.Decide(&s, now, cost) }, []promiseStep{
		{now: 0, cost: 3, verdict: Refuse, retry: Never, remaining: 2, reset: 0}, // cost > Burst
		{now: 0, cost: 1, verdict: Admit, remaining: 1, reset: 4},                // deficit 10 units: ⌈10/3⌉
		{now: 0, cost: 1, verdict: Admit, remaining: 0, reset: 7},                // deficit 20: ⌈20/3⌉
		{now: 0, cost: 1, verdict: Refuse, retry: 4, remaining: 0, reset: 7},     // needs 10 units: ⌈10/3⌉
		{now: 3, cost: 1, verdict: Refuse, retry: 1, remaining: 0, reset: 4},     // deficit 11
		{now: 4, cost: 1, verdict: Admit, remaining: 0, reset: 6},                // deficit 8 → 18
	})
	// At 10: deficit 18−18 = 0: full bucket.
	d := tb.Decide(&s, 10, 2)
	if d.Verdict != Admit || d.Remaining != 0 || d.Reset != 7 {
		t.Errorf("Decide(10, 2) = %v rem %d reset %v, want Admit 0 7", d.Verdict, d.Remaining, d.Reset)
	}
}

// A token that refills at exactly t is there at t, not a nanosecond later.
func TestPromiseTokenBucketTokenAtExactInstant(t *testing.T) {
	for _, name := range []string{"tb", "gcra"} {
		decide := promiseDecider(t, name, Policy{Limit: 1, Window: 10, Burst: 1})
		checkPromiseSteps(t, name, decide, []promiseStep{
			{now: 0, cost: 1, verdict: Admit, remaining: 0, reset: 10},
			{now: 9, cost: 1, verdict: Refuse, retry: 1, remaining: 0, reset: 1},
			{now: 10, cost: 1, verdict: Admit, remaining: 0, reset: 10},
			{now: 11, cost: 1, verdict: Refuse, retry: 9, remaining: 0, reset: 9},
		})
	}
}

func promiseDecider(t *testing.T, name string, p Policy) func(time.Duration, int64) Decision {
	t.Helper()
	switch name {
	case "tb":
		tb, err := NewTokenBucket(p)
		if err != nil {
			t.Fatal(err)
		}
		var s TokenBucketState
		return func(now time.Duration, cost int64) Decision { return tb.Decide(&s, now, cost) }
	case "gcra":
		g, err := NewGCRA(p)
		if err != nil {
			t.Fatal(err)
		}
		var s GCRAState
		return func(now time.Duration, cost int64) Decision { return g.Decide(&s, now, cost) }
	}
	t.Fatalf("unknown %q", name)
	return nil
}

// GCRA gives the same Decisions as TokenBucket; the fractional T = 10/3 ns case.
func TestPromiseGCRAFractionalInterval(t *testing.T) {
	decide := promiseDecider(t, "gcra", Policy{Limit: 3, Window: 10, Burst: 2})
	checkPromiseSteps(t, "gcra", decide, []promiseStep{
		{now: 0, cost: 3, verdict: Refuse, retry: Never, remaining: 2, reset: 0},
		{now: 0, cost: 1, verdict: Admit, remaining: 1, reset: 4},            // TAT 3⅓
		{now: 0, cost: 1, verdict: Admit, remaining: 0, reset: 7},            // TAT 6⅔
		{now: 0, cost: 1, verdict: Refuse, retry: 4, remaining: 0, reset: 7}, // ⌈10 − 6⅔⌉
		{now: 3, cost: 1, verdict: Refuse, retry: 1, remaining: 0, reset: 4}, // ⌈7 − 6⅔⌉, ⌈3⅔⌉
		{now: 4, cost: 1, verdict: Admit, remaining: 0, reset: 6},            // TAT 10: 6 ahead
		{now: 7, cost: 1, verdict: Admit, remaining: 0, reset: 7},            // TAT 13⅓: ⌈6⅓⌉
	})
}

// GCRA far in the past of its TAT (time went backwards): refuseFar's arithmetic.
func TestPromiseGCRARefuseFar(t *testing.T) {
	g, _ := NewGCRA(Policy{Limit: 1, Window: 10, Burst: 1})
	var s GCRAState
	g.Decide(&s, 20, 1) // TAT 30
	// ahead == maxAhead (10) is the ordinary path.
	if d := g.Decide(&s, 20, 1); d.Verdict != Refuse || d.RetryAfter != 10 || d.Reset != 10 || d.Remaining != 0 {
		t.Errorf("Decide(20,1) = %+v, want refuse retry 10 reset 10 rem 0", d)
	}
	// ahead 25 > 10: newTAT − now − Burst×T = 40 − 5 − 10 = 25.
	if d := g.Decide(&s, 5, 1); d.Verdict != Refuse || d.RetryAfter != 25 || d.Reset != 25 || d.Remaining != 0 {
		t.Errorf("Decide(5,1) = %+v, want refuse retry 25 reset 25 rem 0", d)
	}
	if d := g.Decide(&s, 5, 2); d.Verdict != Refuse || d.RetryAfter != Never || d.Reset != 25 {
		t.Errorf("Decide(5,2) = %+v, want refuse Never reset 25", d)
	}
	if _, a, r := g.Answer(&s, 5, 1); a || r {
		t.Errorf("Answer(5,1) far behind TAT = admitted %v refused %v, want neither", a, r)
	}
	if s.tat.ns != 30 || s.tat.frac != 0 {
		t.Errorf("TAT = %+v after refusals, want 30", s.tat)
	}
}

func TestPromiseGCRAIdleFractional(t *testing.T) {
	g, _ := NewGCRA(Policy{Limit: 3, Window: 10, Burst: 2})
	var s GCRAState
	if !g.Idle(&s, 0) {
		t.Error("Idle(zero, 0) = false, want true")
	}
	g.Decide(&s, 0, 1) // TAT 3⅓
	for _, c := range []struct {
		now  time.Duration
		want bool
	}{{3, false}, {4, true}} {
		if got := g.Idle(&s, c.now); got != c.want {
			t.Errorf("Idle(%v) with TAT 3⅓ = %v, want %v", c.now, got, c.want)
		}
	}
	g.Decide(&s, 4, 2) // TAT 4 + 6⅔ = 10⅔
	if g.Idle(&s, 10) || !g.Idle(&s, 11) {
		t.Errorf("Idle(10), Idle(11) with TAT 10⅔ = %v, %v, want false, true", g.Idle(&s, 10), g.Idle(&s, 11))
	}
}

func TestPromiseTokenBucketIdle(t *testing.T) {
	tb, _ := NewTokenBucket(Policy{Limit: 3, Window: 10, Burst: 2})
	var s TokenBucketState
	if !tb.Idle(&s, 0) {
		t.Error("Idle(zero, 0) = false, want true")
	}
	tb.Decide(&s, 5, 1) // deficit 10 units, refilled by 3/ns
	for _, c := range []struct {
		now  time.Duration
		want bool
	}{{4, false}, {5, false}, {8, false}, {9, true}} {
		if got := tb.Idle(&s, c.now); got != c.want {
			t.Errorf("Idle(%v) = %v, want %v", c.now, got, c.want)
		}
	}
}

// Time going backwards in TokenBucket: decided as at the last admission, waits lengthened by the gap.
func TestPromiseTokenBucketLate(t *testing.T) {
	tb, _ := NewTokenBucket(Policy{Limit: 1, Window: 10, Burst: 1})
	var s TokenBucketState
	tb.Decide(&s, 10, 1)
	d := tb.Decide(&s, 4, 1)
	if d.Verdict != Refuse || d.RetryAfter != 16 || d.Reset != 16 || d.Remaining != 0 {
		t.Errorf("Decide(4,1) after admission at 10 = %+v, want refuse retry 16 reset 16", d)
	}
	if d := tb.Decide(&s, 4, 2); d.RetryAfter != Never || d.Reset != 16 {
		t.Errorf("Decide(4,2) late = retry %v reset %v, want Never 16", d.RetryAfter, d.Reset)
	}
	tb2, _ := NewTokenBucket(Policy{Limit: 1, Window: 10, Burst: 2})
	var s2 TokenBucketState
	tb2.Decide(&s2, 10, 1)
	if d := tb2.Decide(&s2, 4, 1); d.Verdict != Admit || d.RetryAfter != 0 || d.Reset != 26 || d.Remaining != 0 {
		t.Errorf("Decide(4,1) late, admitted = %+v, want admit retry 0 reset 26", d)
	}
	if s2.last != 10 {
		t.Errorf("last = %v after a late admission, want 10", s2.last)
	}
	if tb2.Idle(&s2, 4) {
		t.Error("Idle before last with a deficit = true, want false")
	}
	if _, a, r := tb2.Answer(&s2, 4, 1); a || r {
		t.Errorf("Answer before last = admitted %v refused %v, want neither", a, r)
	}
}

// LeakyBucket, Limit 1 per 10ns, Burst 2: delay + (cost−1)×T ≤ Burst×T.
func TestPromiseLeakyBucketQueue(t *testing.T) {
	lb, err := NewLeakyBucket(Policy{Limit: 1, Window: 10, Burst: 2})
	if err != nil {
		t.Fatal(err)
	}
	var s LeakyBucketState
	checkPromiseSteps(t, "leaky", func(now time.Duration, cost int64) Decision { return lb.Decide(&s, now, cost) }, []promiseStep{
		{now: 0, cost: 4, verdict: Refuse, retry: Never, remaining: 3, reset: 0}, // cost > Burst+1
		{now: 0, cost: 1, verdict: Admit, remaining: 2, reset: 10},
		{now: 0, cost: 1, verdict: Delay, delay: 10, remaining: 1, reset: 20},
		{now: 0, cost: 1, verdict: Delay, delay: 20, remaining: 0, reset: 30}, // delay == Burst×T
		{now: 0, cost: 1, verdict: Refuse, retry: 10, remaining: 0, reset: 30},
		{now: 9, cost: 1, verdict: Refuse, retry: 1, remaining: 0, reset: 21},
		{now: 10, cost: 1, verdict: Delay, delay: 20, remaining: 0, reset: 30},
		{now: 20, cost: 2, verdict: Refuse, retry: 10, remaining: 1, reset: 20}, // ⌈20 − (2−2+1)×10⌉
		{now: 40, cost: 3, verdict: Admit, remaining: 0, reset: 30},             // empty: Burst+1 admitted
	})
}

// Fractional T = 10/3: Delay is rounded up.
func TestPromiseLeakyBucketDelayCeil(t *testing.T) {
	lb, _ := NewLeakyBucket(Policy{Limit: 3, Window: 10, Burst: 1})
	var s LeakyBucketState
	checkPromiseSteps(t, "leaky3", func(now time.Duration, cost int64) Decision { return lb.Decide(&s, now, cost) }, []promiseStep{
		{now: 0, cost: 1, verdict: Admit, remaining: 1, reset: 4},            // nextFree 3⅓
		{now: 0, cost: 1, verdict: Delay, delay: 4, remaining: 0, reset: 7},  // delay 3⅓
		{now: 0, cost: 1, verdict: Refuse, retry: 4, remaining: 0, reset: 7}, // ⌈6⅔ − 3⅓⌉
		{now: 3, cost: 1, verdict: Refuse, retry: 1, remaining: 0, reset: 4}, // ⌈3⅔ − 3⅓⌉
		{now: 4, cost: 1, verdict: Delay, delay: 3, remaining: 0, reset: 6},  // delay 2⅔, nextFree 10
	})
	if lb.Idle(&s, 9) || !lb.Idle(&s, 10) {
		t.Errorf("Idle(9), Idle(10) with nextFree 10 = %v, %v, want false, true", lb.Idle(&s, 9), lb.Idle(&s, 10))
	}
}

func TestPromiseLeakyBucketQueueMatchesDecide(t *testing.T) {
	lb, _ := NewLeakyBucket(Policy{Limit: 1, Window: 10, Burst: 2})
	var s LeakyBucketState
	for i, c := range []struct {
		now   time.Duration
		cost  int64
		delay time.Duration
		ok    bool
	}{
		{0, 4, 0, false}, {0, 1, 0, true}, {0, 1, 10, true}, {0, 1, 20, true}, {0, 1, 0, false},
		{9, 1, 0, false}, {10, 1, 20, true}, {20, 2, 0, false},
	} {
		before := s
		delay, ok := lb.Queue(&s, c.now, c.cost)
		if delay != c.delay || ok != c.ok {
			t.Errorf("step %d: Queue(%v, %d) = %v, %v, want %v, %v", i, c.now, c.cost, delay, ok, c.delay, c.ok)
		}
		if !ok && s != before {
			t.Errorf("step %d: refused Queue changed state %+v → %+v", i, before, s)
		}
	}
	if !lb.Idle(&s, 40) || lb.Idle(&s, 39) {
		t.Errorf("Idle(39), Idle(40) with nextFree 40 = %v, %v, want false, true", lb.Idle(&s, 39), lb.Idle(&s, 40))
	}
}

// Answer, Refusal and Admit at the same boundaries as Decide.
func TestPromiseAnswerBoundaries(t *testing.T) {
	fw, _ := NewFixedWindow(Policy{Limit: 2, Window: 100})
	var fs FixedWindowState
	type ans struct {
		retry             time.Duration
		admitted, refused bool
	}
	check := func(name string, got, want ans) {
		t.Helper()
		if got != want {
			t.Errorf("%s = %+v, want %+v", name, got, want)
		}
	}
	a := func(r time.Duration, ad, rf bool) ans { return ans{r, ad, rf} }
	check("fw.Answer(0,3)", a(fw.Answer(&fs, 0, 3)), a(Never, false, true))
	check("fw.Answer(30,2)", a(fw.Answer(&fs, 30, 2)), a(0, true, false))
	r, ref := fw.Refusal(&fs, 40, 1)
	check("fw.Refusal(40,1)", ans{r, false, ref}, a(60, false, true))
	check("fw.Answer(99,1)", a(fw.Answer(&fs, 99, 1)), a(1, false, true))
	if !fw.Admit(&fs, 100, 2) || fw.Admit(&fs, 100, 1) {
		t.Error("fw.Admit at the boundary: want true then false")
	}
	if fs.count != 2 || fs.start != 100 {
		t.Errorf("fw state = %+v, want start 100 count 2", fs)
	}

	tb, _ := NewTokenBucket(Policy{Limit: 3, Window: 10, Burst: 2})
	var ts TokenBucketState
	check("tb.Answer(0,3)", a(tb.Answer(&ts, 0, 3)), a(Never, false, true))
	check("tb.Answer(0,2)", a(tb.Answer(&ts, 0, 2)), a(0, true, false))
	r, ref = tb.Refusal(&ts, 0, 1)
	check("tb.Refusal(0,1)", ans{r, false, ref}, a(4, false, true))
	r, ref = tb.Refusal(&ts, 3, 1)
	check("tb.Refusal(3,1)", ans{r, false, ref}, a(1, false, true))
	r, ref = tb.Refusal(&ts, 4, 1)
	check("tb.Refusal(4,1)", ans{r, false, ref}, a(0, false, false))
	if ts.deficit != 20 || ts.last != 0 {
		t.Errorf("tb state after Refusals = %+v, want deficit 20 last 0", ts)
	}
	if tb.Admit(&ts, 3, 1) || !tb.Admit(&ts, 4, 1) {
		t.Error("tb.Admit(3,1), Admit(4,1): want false, true")
	}
	if ts.deficit != 18 || ts.last != 4 {
		t.Errorf("tb state = %+v, want deficit 18 last 4", ts)
	}

	g, _ := NewGCRA(Policy{Limit: 3, Window: 10, Burst: 2})
	var gs GCRAState
	check("g.Answer(0,3)", a(g.Answer(&gs, 0, 3)), a(Never, false, true))
	check("g.Answer(0,2)", a(g.Answer(&gs, 0, 2)), a(0, true, false))
	r, ref = g.Refusal(&gs, 3, 1)
	check("g.Refusal(3,1)", ans{r, false, ref}, a(1, false, true))
	if g.Admit(&gs, 3, 1) || !g.Admit(&gs, 4, 1) {
		t.Error("g.Admit(3,1), Admit(4,1): want false, true")
	}
	if gs.tat.ns != 10 || gs.tat.frac != 0 {
		t.Errorf("TAT = %+v, want 10 exactly", gs.tat)
	}
}

// Limit 7 per 1ns, Burst 2: T = 1/7 ns and Burst×T = 2/7 ns is under a nanosecond,
// so requests at the very TAT (ahead 0 = ⌊Burst×T⌋) are decided in fractions.
func TestPromiseSubNanosecondBurst(t *testing.T) {
	for _, name := range []string{"tb", "gcra"} {
		decide := promiseDecider(t, name, Policy{Limit: 7, Window: 1, Burst: 2})
		checkPromiseSteps(t, name, decide, []promiseStep{
			{now: 0, cost: 1, verdict: Admit, remaining: 1, reset: 1},            // TAT 1/7
			{now: 0, cost: 1, verdict: Admit, remaining: 0, reset: 1},            // TAT 2/7
			{now: 0, cost: 1, verdict: Refuse, retry: 1, remaining: 0, reset: 1}, // ⌈3/7 − 2/7⌉
			{now: 1, cost: 2, verdict: Admit, remaining: 0, reset: 1},            // empty again: TAT 1 + 2/7
		})
	}
}

// Decision.Limit is the policy's Limit on every verdict of every limiter (not Burst).
func TestPromiseDecisionLimitField(t *testing.T) {
	p := Policy{Limit: 3, Window: 10, Burst: 2}
	fw, _ := NewFixedWindow(p)
	tb, _ := NewTokenBucket(p)
	g, _ := NewGCRA(p)
	lb, _ := NewLeakyBucket(p)
	sl, _ := NewSlidingLog(p)
	sw, _ := NewSlidingWindowCounter(p)
	var (
		fs FixedWindowState
		ts TokenBucketState
		gs GCRAState
		ls LeakyBucketState
		ss SlidingLogState
		ws SlidingWindowCounterState
	)
	deciders := map[string]func(time.Duration, int64) Decision{
		"fixed": func(n time.Duration, c int64) Decision { return fw.Decide(&fs, n, c) },
		"tb":    func(n time.Duration, c int64) Decision { return tb.Decide(&ts, n, c) },
		"gcra":  func(n time.Duration, c int64) Decision { return g.Decide(&gs, n, c) },
		"leaky": func(n time.Duration, c int64) Decision { return lb.Decide(&ls, n, c) },
		"log":   func(n time.Duration, c int64) Decision { return sl.Decide(&ss, n, c) },
		"swc":   func(n time.Duration, c int64) Decision { return sw.Decide(&ws, n, c) },
	}
	for name, decide := range deciders {
		for i, req := range []struct {
			now  time.Duration
			cost int64
		}{{5, 1}, {5, 2}, {5, 9}, {5, 1}, {1, 1}} { // admitted, refused, Never, backwards
			if d := decide(req.now, req.cost); d.Limit != 3 {
				t.Errorf("%s request %d: Decision.Limit = %d, want 3", name, i, d.Limit)
			}
		}
	}
}
