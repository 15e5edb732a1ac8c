package algorithms

import (
	"testing"
	"time"
)

// TestRemainingIsWhatFits holds every limiter to Decision.Remaining's doc
// comment, "how many cost units could still be admitted right after this
// decision": after each decision on random traffic, a request of cost
// Remaining at the same instant is admitted at once, and one of Remaining+1 is
// not. The sliding window counter's Remaining is ⌊Limit − estimate⌋ and its
// verdict compares the same estimate exactly, so it keeps the promise too; a
// Remaining rounded the other way (⌈⌉) promises one unit that is refused.
// The leaky bucket is left out: it admits by queueing, and its Remaining counts
// queue places, not units admitted at once.
func TestRemainingIsWhatFits(t *testing.T) {
	forRandomCases(t, 300, func(t *testing.T, p Policy, reqs []request) {
		remainingFits(t, "fixed window", must(NewFixedWindow(p)), reqs)
		remainingFits(t, "sliding log", must(NewSlidingLog(p)), reqs)
		remainingFits(t, "sliding window counter", must(NewSlidingWindowCounter(p)), reqs)
		remainingFits(t, "token bucket", must(NewTokenBucket(p)), reqs)
		remainingFits(t, "gcra", must(NewGCRA(p)), reqs)
	})
}

func remainingFits[S any](t *testing.T, name string, alg Algorithm[S], reqs []request) {
	t.Helper()
	var s S
	for i, r := range reqs {
		d := alg.Decide(&s, r.at, r.cost)
		if d.Remaining < 0 {
			t.Fatalf("%s request %d: Decide(t0+%v, %d).Remaining = %d, want at least 0", name, i, r.at, r.cost, d.Remaining)
		}
		if d.Remaining > 0 {
			if got := Peek(alg, &s, r.at, d.Remaining); got.Verdict != Admit {
				t.Fatalf("%s request %d: after Decide(t0+%v, %d) said Remaining %d, Peek(t0+%v, %d) = %v, want admit",
					name, i, r.at, r.cost, d.Remaining, r.at, d.Remaining, got.Verdict)
			}
		}
		if got := Peek(alg, &s, r.at, d.Remaining+1); got.Verdict == Admit {
			t.Fatalf("%s request %d: after Decide(t0+%v, %d) said Remaining %d, Peek(t0+%v, %d) admits, want refuse",
				name, i, r.at, r.cost, d.Remaining, r.at, d.Remaining+1)
		}
	}
}

// TestSlidingWindowCounterRemainingBoundary is the case the rounding turns on:
// limit 10 per 1s, 5 admitted in [0, 1s), and at 1.5s the previous window
// weighs 5 × 0.5 = 2.5, so the estimate is 2.5 and Remaining ⌊7.5⌋ = 7: a
// request of 7 fits, one of 8 does not (2.5 + 8 > 10).
func TestSlidingWindowCounterRemainingBoundary(t *testing.T) {
	sw := must(NewSlidingWindowCounter(Policy{Limit: 10, Window: time.Second}))
	var s SlidingWindowCounterState
	for range 5 {
		sw.Decide(&s, 100*ms, 1)
	}
	s2 := s
	if d := sw.Decide(&s2, 1500*ms, 8); d.Verdict != Refuse || d.Remaining != 7 {
		t.Fatalf("Decide(t0+1.5s, 8) = %v remaining %d, want refuse remaining 7", d.Verdict, d.Remaining)
	}
	s2 = s
	if d := sw.Decide(&s2, 1500*ms, 7); d.Verdict != Admit || d.Remaining != 0 {
		t.Fatalf("Decide(t0+1.5s, 7) = %v remaining %d, want admit remaining 0", d.Verdict, d.Remaining)
	}
}

// TestAIMDAtTargetIsNotOverload is the boundary of AIMD's doc comment: "a
// completion slower than Target signals overload", so one exactly at Target is
// fast (adds 1/limit) and one a nanosecond slower cuts.
func TestAIMDAtTargetIsNotOverload(t *testing.T) {
	const target = 100 * ms
	for _, tt := range []struct {
		latency time.Duration
		want    float64
	}{
		{target - 1, 4.25},
		{target, 4.25},
		{target + 1, 3.6},
	} {
		a := must(NewAIMD(AIMDConfig{Initial: 4, Min: 1, Max: 10, Target: target}))
		if !a.Acquire(0) {
			t.Fatal("Acquire(t0) = false on an empty limit")
		}
		a.Release(tt.latency, tt.latency)
		if got := a.Limit(); got != tt.want {
			t.Errorf("Release(latency %v) with target %v: Limit() = %v, want %v", tt.latency, target, got, tt.want)
		}
	}
}

// TestNeverOnlyBeyondTheBound walks the boundary each limiter's doc comment
// draws for RetryAfter's Never: a request of the largest cost that could ever
// fit (Limit for the windows, Burst for the buckets, Burst+1 for the leaky
// bucket), refused now, is told a finite wait after which it is admitted; one
// unit more is told Never.
func TestNeverOnlyBeyondTheBound(t *testing.T) {
	p := Policy{Limit: 3, Window: time.Second}
	neverBeyond(t, "fixed window", must(NewFixedWindow(p)), 3)
	neverBeyond(t, "sliding log", must(NewSlidingLog(p)), 3)
	neverBeyond(t, "sliding window counter", must(NewSlidingWindowCounter(p)), 3)
	neverBeyond(t, "token bucket", must(NewTokenBucket(p)), 3)
	neverBeyond(t, "gcra", must(NewGCRA(p)), 3)
	neverBeyond(t, "leaky bucket", must(NewLeakyBucket(p)), 4)
}

func neverBeyond[S any](t *testing.T, name string, alg Algorithm[S], bound int64) {
	t.Helper()
	var s S
	const at = 100 * ms
	for range bound { // fill it: the bound alone no longer fits now
		alg.Decide(&s, at, 1)
	}
	d := Peek(alg, &s, at, bound)
	switch {
	case d.Verdict != Refuse:
		t.Errorf("%s: Peek(t0+%v, %d) after %d units = %v, want refuse", name, at, bound, bound, d.Verdict)
	case d.RetryAfter == Never || d.RetryAfter <= 0:
		t.Errorf("%s: Peek(t0+%v, %d) after %d units: RetryAfter %v, want a finite wait", name, at, bound, bound, d.RetryAfter)
	default:
		if got := Peek(alg, &s, at+d.RetryAfter, bound); !got.Admitted() {
			t.Errorf("%s: Peek(t0+%v, %d) = %v after its RetryAfter %v, want admitted", name, at+d.RetryAfter, bound, got.Verdict, d.RetryAfter)
		}
	}
	if d := Peek(alg, &s, at, bound+1); d.Verdict != Refuse || d.RetryAfter != Never {
		t.Errorf("%s: Peek(t0+%v, %d) = %v RetryAfter %v, want refuse Never", name, at, bound+1, d.Verdict, d.RetryAfter)
	}
}
