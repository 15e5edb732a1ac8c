package algorithms

import (
	"math"
	"strings"
	"testing"
	"time"
)

// SlidingLog, Limit 3 per 100ns: an entry at t counts during (t−W, t], expires at t+W.
func TestPromiseSlidingLogBoundaries(t *testing.T) {
	sl, err := NewSlidingLog(Policy{Limit: 3, Window: 100})
	if err != nil {
		t.Fatal(err)
	}
	var s SlidingLogState
	checkPromiseStepsInexact(t, "log", true, func(now time.Duration, cost int64) Decision { return sl.Decide(&s, now, cost) }, []promiseStep{
		{now: 0, cost: 4, verdict: Refuse, retry: Never, remaining: 3, reset: 0},
		{now: 10, cost: 1, verdict: Admit, remaining: 2, reset: 100},
		{now: 20, cost: 2, verdict: Admit, remaining: 0, reset: 100},
		{now: 50, cost: 1, verdict: Refuse, retry: 60, remaining: 0, reset: 70}, // oldest (10) frees 1
		{now: 50, cost: 2, verdict: Refuse, retry: 70, remaining: 0, reset: 70}, // needs the entry at 20 too
		{now: 50, cost: 4, verdict: Refuse, retry: Never, remaining: 0, reset: 70},
		{now: 109, cost: 1, verdict: Refuse, retry: 1, remaining: 0, reset: 11},
		{now: 110, cost: 1, verdict: Admit, remaining: 0, reset: 100}, // entry at 10 expired exactly now
		{now: 50, cost: 1, verdict: Refuse, retry: 70, remaining: 0, reset: 160},
	})
	if sl.Idle(&s, 209) || !sl.Idle(&s, 210) {
		t.Errorf("Idle(209), Idle(210) with newest entry at 110 = %v, %v, want false, true", sl.Idle(&s, 209), sl.Idle(&s, 210))
	}
	var zero SlidingLogState
	if !sl.Idle(&zero, 0) {
		t.Error("Idle(zero) = false, want true")
	}
}

func TestPromiseSlidingLogBackwardsLogged(t *testing.T) {
	sl, _ := NewSlidingLog(Policy{Limit: 2, Window: 100})
	var s SlidingLogState
	sl.Decide(&s, 50, 1)
	if d := sl.Decide(&s, 30, 1); d.Verdict != Admit || d.Remaining != 0 || d.Reset != 120 {
		t.Errorf("Decide(30,1) after 50 = %+v, want admit rem 0 reset 120 (logged at 50)", d)
	}
	if sl.Idle(&s, 149) || !sl.Idle(&s, 150) {
		t.Errorf("Idle(149), Idle(150) = %v, %v, want false, true", sl.Idle(&s, 149), sl.Idle(&s, 150))
	}
	// Peek answers as Decide and changes nothing; Admit and Allow admit as Decide.
	before := s.n
	if d := sl.Peek(&s, 150, 2); d.Verdict != Admit || d.Remaining != 0 || d.Reset != 100 || s.n != before {
		t.Errorf("Peek(150,2) = %+v (n %d→%d), want admit rem 0 reset 100, state unchanged", d, before, s.n)
	}
	if sl.Admit(&s, 149, 1) || !sl.Allow(&s, 150, 1) || !sl.Admit(&s, 150, 1) || sl.Admit(&s, 150, 1) {
		t.Error("Admit(149), Allow(150), Admit(150), Admit(150): want false true true false")
	}
}

func TestPromiseSlidingLogMaxLimit(t *testing.T) {
	if _, err := NewSlidingLog(Policy{Limit: 1 << 30, Window: time.Second}); err != nil {
		t.Errorf("Limit 2^30: %v, want nil", err)
	}
	_, err := NewSlidingLog(Policy{Limit: 1<<30 + 1, Window: time.Second})
	want := "sliding log: limit 1073741825 is above 1073741824, the most it can log (16 bytes per admitted unit and key)"
	if err == nil || err.Error() != want {
		t.Errorf("Limit 2^30+1: %v, want %q", err, want)
	}
}

func checkPromiseStepsInexact(t *testing.T, name string, exact bool, decide func(time.Duration, int64) Decision, steps []promiseStep) {
	t.Helper()
	for i, st := range steps {
		d := decide(st.now, st.cost)
		if d.Verdict != st.verdict || d.Delay != st.delay || d.RetryAfter != st.retry || d.Reset != st.reset || d.Remaining != st.remaining || d.RetryAfterExact != exact {
			t.Errorf("%s step %d: Decide(%v, %d) = {verdict %v delay %v retry %v reset %v remaining %d exact %v}, want {%v %v %v %v %d %v}",
				name, i, st.now, st.cost, d.Verdict, d.Delay, d.RetryAfter, d.Reset, d.Remaining, d.RetryAfterExact,
				st.verdict, st.delay, st.retry, st.reset, st.remaining, exact)
		}
	}
}

// SlidingWindowCounter, Limit 4 per 100ns: prev×(W−e) + (cur+cost)×W ≤ Limit×W.
func TestPromiseSlidingWindowCounterEstimate(t *testing.T) {
	sw, err := NewSlidingWindowCounter(Policy{Limit: 4, Window: 100})
	if err != nil {
		t.Fatal(err)
	}
	var s SlidingWindowCounterState
	checkPromiseStepsInexact(t, "swc", false, func(now time.Duration, cost int64) Decision { return sw.Decide(&s, now, cost) }, []promiseStep{
		{now: 0, cost: 5, verdict: Refuse, retry: Never, remaining: 4, reset: 0},
		{now: 50, cost: 4, verdict: Admit, remaining: 0, reset: 150},
		{now: 60, cost: 1, verdict: Refuse, retry: 65, remaining: 0, reset: 140}, // at 125: 4×75/100 + 1 = 4
	})
	probe := s
	if d := sw.Decide(&probe, 124, 1); d.Verdict != Refuse || d.RetryAfter != 1 {
		t.Errorf("Decide(124,1) = %v retry %v, want refuse 1 (4×76/100 + 1 > 4)", d.Verdict, d.RetryAfter)
	}
	checkPromiseStepsInexact(t, "swc", false, func(now time.Duration, cost int64) Decision { return sw.Decide(&s, now, cost) }, []promiseStep{
		{now: 125, cost: 1, verdict: Admit, remaining: 0, reset: 175},             // ⌈3⌉ + 1
		{now: 150, cost: 1, verdict: Admit, remaining: 0, reset: 150},             // 4×50 + 2×100 = 400: equality admits
		{now: 151, cost: 1, verdict: Refuse, retry: 24, remaining: 0, reset: 149}, // at 175: 4×25 + 3×100 = 400
		{now: 190, cost: 2, verdict: Refuse, retry: 10, remaining: 1, reset: 110}, // ⌊4 − 0.4 − 2⌋; next window at 200
		{now: 190, cost: 5, verdict: Refuse, retry: Never, remaining: 1, reset: 110},
	})
	for _, c := range []struct {
		now  time.Duration
		want bool
	}{{199, false}, {200, false}, {299, false}, {300, true}} {
		if got := sw.Idle(&s, c.now); got != c.want {
			t.Errorf("Idle(%v) with start 100 prev 4 cur 2 = %v, want %v", c.now, got, c.want)
		}
	}
	// A whole idle window zeroes previous; one window later previous is cur.
	p1, p2 := s, s
	if d := sw.Decide(&p1, 300, 4); d.Verdict != Admit || d.Reset != 200 || d.Remaining != 0 {
		t.Errorf("Decide(300,4) = %+v, want admit reset 200", d)
	}
	if d := sw.Decide(&p2, 200, 3); d.Verdict != Refuse || d.RetryAfter != 50 || d.Remaining != 2 || d.Reset != 100 {
		t.Errorf("Decide(200,3) = %+v, want refuse retry 50 rem 2 reset 100 (prev 2 weighs fully, gone at 300)", d)
	}
	// Time backwards: treated as the window's start, previous weighs fully.
	p3 := s
	if d := sw.Decide(&p3, 50, 1); d.Verdict != Refuse || d.Remaining != 0 || d.Reset != 250 {
		t.Errorf("Decide(50,1) backwards = %+v, want refuse rem 0 reset 250", d)
	}
	if p3 != s {
		t.Errorf("refusal changed state %+v → %+v", s, p3)
	}
	if sw.Admit(&p3, 151, 1) || !sw.Admit(&p3, 175, 1) || p3.cur != 3 || p3.start != 100 {
		t.Errorf("Admit(151), Admit(175): want false, true with cur 3, got state %+v", p3)
	}
	var zero SlidingWindowCounterState
	if !sw.Idle(&zero, 0) {
		t.Error("Idle(zero) = false, want true")
	}
}

// Charging past the limit: the debt refuses exactly as long as the rate takes to pay it.
func TestPromiseChargeDebt(t *testing.T) {
	fw, _ := NewFixedWindow(Policy{Limit: 3, Window: 100})
	var fs FixedWindowState
	fw.Charge(&fs, 10, 5)
	if d := fw.Decide(&fs, 20, 1); d.Verdict != Refuse || d.RetryAfter != 80 || d.Remaining != 0 || d.Reset != 80 {
		t.Errorf("fw after Charge 5: %+v, want refuse 80 rem 0 reset 80", d)
	}
	fw.Charge(&fs, 100, 1)
	fw.Charge(&fs, 50, 1) // earlier window: counted in [100,200)
	if fs.start != 100 || fs.count != 2 {
		t.Errorf("fw state = %+v, want start 100 count 2", fs)
	}
	fw.Charge(&fs, 100, math.MaxInt64)
	if fs.count != math.MaxInt64 {
		t.Errorf("fw count = %d, want saturated MaxInt64", fs.count)
	}

	tb, _ := NewTokenBucket(Policy{Limit: 1, Window: 10, Burst: 1})
	var ts TokenBucketState
	tb.Charge(&ts, 0, 3) // 2 tokens in debt: a token is back at 30
	if d := tb.Decide(&ts, 19, 1); d.Verdict != Refuse || d.RetryAfter != 11 || d.Remaining != 0 || d.Reset != 11 {
		t.Errorf("tb at 19 after Charge 3: %+v, want refuse 11 rem 0 reset 11", d)
	}
	tb.Charge(&ts, -5, 1) // before last: at last
	if ts.deficit != 40 || ts.last != 0 {
		t.Errorf("tb state = %+v, want deficit 40 last 0", ts)
	}
	tb.Charge(&ts, 0, math.MaxInt64)
	if ts.deficit != math.MaxInt64/2 {
		t.Errorf("tb deficit = %d, want saturated MaxInt64/2", ts.deficit)
	}

	g, _ := NewGCRA(Policy{Limit: 1, Window: 10, Burst: 1})
	var gs GCRAState
	g.Charge(&gs, 0, 3)
	if gs.tat.ns != 30 {
		t.Errorf("gcra TAT = %+v, want 30", gs.tat)
	}
	for _, c := range []struct {
		now   time.Duration
		v     Verdict
		retry time.Duration
	}{{19, Refuse, 11}, {20, Refuse, 10}, {29, Refuse, 1}, {30, Admit, 0}} {
		p := gs
		if d := g.Decide(&p, c.now, 1); d.Verdict != c.v || d.RetryAfter != c.retry || d.Remaining != 0 {
			t.Errorf("gcra Decide(%v,1) after Charge 3 = %+v, want %v retry %v rem 0", c.now, d, c.v, c.retry)
		}
	}

	lb, _ := NewLeakyBucket(Policy{Limit: 1, Window: 10, Burst: 1})
	var ls LeakyBucketState
	lb.Charge(&ls, 0, 5)
	if d := lb.Decide(&ls, 0, 1); d.Verdict != Refuse || d.RetryAfter != 40 || d.Remaining != 0 || d.Reset != 50 {
		t.Errorf("leaky after Charge 5: %+v, want refuse 40 rem 0 reset 50", d)
	}

	sl, _ := NewSlidingLog(Policy{Limit: 2, Window: 100})
	var ss SlidingLogState
	sl.Charge(&ss, 10, 1)
	sl.Charge(&ss, 20, 1)
	sl.Charge(&ss, 30, 1) // merges 10 into 20
	if d := sl.Decide(&ss, 50, 1); d.Verdict != Refuse || d.RetryAfter != 70 || d.Remaining != 0 || d.Reset != 80 {
		t.Errorf("log after 3 charges: %+v, want refuse 70 rem 0 reset 80", d)
	}
	sl1, _ := NewSlidingLog(Policy{Limit: 1, Window: 100})
	var s1 SlidingLogState
	sl1.Charge(&s1, 10, 1)
	sl1.Charge(&s1, 20, 1) // moves the one entry to 20
	if d := sl1.Decide(&s1, 50, 1); d.Verdict != Refuse || d.RetryAfter != 70 || d.Reset != 70 {
		t.Errorf("log limit 1 after 2 charges: %+v, want refuse 70 reset 70", d)
	}

	sw, _ := NewSlidingWindowCounter(Policy{Limit: 4, Window: 100})
	var ws SlidingWindowCounterState
	sw.Charge(&ws, 50, 6)
	if d := sw.Decide(&ws, 60, 1); d.Verdict != Refuse || d.RetryAfter != 90 || d.Remaining != 0 || d.Reset != 140 {
		t.Errorf("swc after Charge 6: %+v, want refuse 90 rem 0 reset 140", d)
	}
}

func TestPromiseKeyedEvict(t *testing.T) {
	fw, _ := NewFixedWindow(Policy{Limit: 3, Window: 100})
	k := NewKeyed[FixedWindowState](fw)
	k.Decide("a", 0, 3)
	k.Decide("b", 50, 1)
	k.Decide("c", 50, 4) // refused: its state counts nothing
	if k.Len() != 3 {
		t.Errorf("Len = %d, want 3", k.Len())
	}
	if n := k.Evict(99); n != 1 || k.Len() != 2 {
		t.Errorf("Evict(99) = %d, Len %d, want 1, 2", n, k.Len())
	}
	if d := k.Decide("a", 99, 1); d.Verdict != Refuse || d.RetryAfter != 1 {
		t.Errorf("a at 99 = %+v, want refuse 1: not evicted", d)
	}
	if n := k.Evict(100); n != 2 || k.Len() != 0 {
		t.Errorf("Evict(100) = %d, Len %d, want 2, 0", n, k.Len())
	}
}

// checkScale: (n+extra)×W'+L' must fit in int64, the edge exactly.
func TestPromiseCheckScaleEdge(t *testing.T) {
	const w = (math.MaxInt64 - 1) / 2 // 2w + 1 = MaxInt64
	if _, err := NewTokenBucket(Policy{Limit: 1, Window: w, Burst: 1}); err != nil {
		t.Errorf("token bucket (1+1)×W'+1 = MaxInt64: %v, want nil", err)
	}
	_, err := NewTokenBucket(Policy{Limit: 1, Window: w + 1, Burst: 1})
	want := "token bucket: burst 1 at 1 per " + time.Duration(w+1).String() + " overflows exact int64 arithmetic (2 × 4611686018427387904 ns); use a smaller burst or a window with a larger common divisor"
	if err == nil || err.Error() != want {
		t.Errorf("one ns over: %v, want %q", err, want)
	}
	if _, err := NewGCRA(Policy{Limit: 1, Window: w + 1, Burst: 1}); err == nil || !strings.HasPrefix(err.Error(), "gcra: burst 1 at 1 per") {
		t.Errorf("gcra one over: %v", err)
	}
	const w3 = (math.MaxInt64 - 1) / 3 // 3×w3 + 1 = MaxInt64
	if _, err := NewLeakyBucket(Policy{Limit: 1, Window: w3, Burst: 1}); err != nil {
		t.Errorf("leaky bucket (1+2)×W'+1 = MaxInt64: %v, want nil", err)
	}
	if _, err := NewLeakyBucket(Policy{Limit: 1, Window: w3 + 1, Burst: 1}); err == nil || !strings.HasPrefix(err.Error(), "leaky bucket: burst 1 at 1 per") {
		t.Errorf("leaky one over: %v", err)
	}
}

func TestPromiseBadCostMessage(t *testing.T) {
	tb, _ := NewTokenBucket(Policy{Limit: 1, Window: 10})
	defer func() {
		if r := recover(); r != "algorithms: TokenBucket.Decide: cost must be at least 1, got 0" {
			t.Errorf("panic = %v", r)
		}
	}()
	var s TokenBucketState
	tb.Decide(&s, 0, 0)
}
