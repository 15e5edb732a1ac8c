package algorithms

import (
	"reflect"
	"testing"
	"time"
)

// checkAdmit checks, for each Admitter, that Admit then Decide on false is
// Decide: the same verdict on every request and the same state after it, also
// when a request comes back in time (every fifth, a window before the last).
func checkAdmit(t *testing.T, p Policy, reqs []request) {
	checkAdmitOf(t, "fixed window", must(NewFixedWindow(p)), p, reqs, same[FixedWindowState])
	checkAdmitOf(t, "token bucket", must(NewTokenBucket(p)), p, reqs, same[TokenBucketState])
	checkAdmitOf(t, "gcra", must(NewGCRA(p)), p, reqs, same[GCRAState])
	checkAdmitOf(t, "sliding window counter", must(NewSlidingWindowCounter(p)), p, reqs, same[SlidingWindowCounterState])
	checkAdmitOf(t, "sliding log", must(NewSlidingLog(p)), p, reqs, cloneLog)
}

func checkAdmitOf[S any](t *testing.T, name string, alg interface {
	Algorithm[S]
	Admitter[S]
}, p Policy, reqs []request, clone func(S) S) {
	var quick, full S
	for i, r := range reqs {
		at := r.at
		if i%5 == 4 {
			at = max(at-p.Window, 0)
		}
		before := clone(quick)
		ok := alg.Admit(&quick, at, r.cost)
		if !ok && !reflect.DeepEqual(quick, before) {
			t.Fatalf("%s %+v request %d: Admit(t0+%v, cost %d) = false changed the state from %+v to %+v", name, p, i, at, r.cost, before, quick)
		}
		if !ok {
			alg.Decide(&quick, at, r.cost)
		}
		d := alg.Decide(&full, at, r.cost)
		if ok != (d.Verdict == Admit && d.Delay == 0) && (ok || admitsAll(alg)) {
			t.Fatalf("%s %+v request %d: Admit(t0+%v, cost %d) = %v, Decide = %+v", name, p, i, at, r.cost, ok, d)
		}
		if !reflect.DeepEqual(quick, full) {
			t.Fatalf("%s %+v request %d at t0+%v cost %d: state %+v after Admit, %+v after Decide", name, p, i, at, r.cost, quick, full)
		}
	}
}

// admitsAll reports whether alg's Admit admits every request Decide admits at
// once; the others leave some to Decide (time going backwards, for one).
func admitsAll(alg any) bool {
	switch alg.(type) {
	case *SlidingLog, *SlidingWindowCounter:
		return true
	}
	return false
}

// checkQueue checks that the leaky bucket's Queue then Decide on false is
// Decide: the same verdict and delay on every request and the same state after
// it, also when a request comes back in time (every fifth, a window before).
func checkQueue(t *testing.T, p Policy, reqs []request) {
	lb := must(NewLeakyBucket(p))
	var quick, full LeakyBucketState
	for i, r := range reqs {
		at := r.at
		if i%5 == 4 {
			at = max(at-p.Window, 0)
		}
		before := quick
		delay, ok := lb.Queue(&quick, at, r.cost)
		if !ok && quick != before {
			t.Fatalf("%+v request %d: Queue(t0+%v, cost %d) = false changed the state from %+v to %+v", p, i, at, r.cost, before, quick)
		}
		if !ok {
			lb.Decide(&quick, at, r.cost)
		}
		d := lb.Decide(&full, at, r.cost)
		if ok != d.Admitted() || (ok && delay != d.Delay) {
			t.Fatalf("%+v request %d: Queue(t0+%v, cost %d) = %v, %v; Decide = %+v", p, i, at, r.cost, delay, ok, d)
		}
		if quick != full {
			t.Fatalf("%+v request %d at t0+%v cost %d: state %+v after Queue, %+v after Decide", p, i, at, r.cost, quick, full)
		}
	}
}

func FuzzQueue(f *testing.F) { fuzzProperty(f, checkQueue) }

// Admit in a step table of 2 per second: a full bucket, a refusal, a refill, and
// a request from the past left to Decide; the fixed window waits for its next window.
func TestAdmitSteps(t *testing.T) {
	p := Policy{Limit: 2, Window: time.Second}
	tb, g, fw := must(NewTokenBucket(p)), must(NewGCRA(p)), must(NewFixedWindow(p))
	var ts TokenBucketState
	var gs GCRAState
	var fs FixedWindowState
	for _, step := range []struct {
		at     time.Duration
		want   bool
		window bool // the fixed window's verdict
	}{{0, true, true}, {0, true, true}, {0, false, false}, {500 * time.Millisecond, true, false},
		{400 * time.Millisecond, false, false}, {time.Second, true, true}} {
		if got := fw.Admit(&fs, step.at, 1); got != step.window {
			t.Errorf("FixedWindow.Admit(t0+%v, 1) = %v, want %v", step.at, got, step.window)
		}
		if got := tb.Admit(&ts, step.at, 1); got != step.want {
			t.Errorf("TokenBucket.Admit(t0+%v, 1) = %v, want %v", step.at, got, step.want)
		}
		if got := g.Admit(&gs, step.at, 1); got != step.want {
			t.Errorf("GCRA.Admit(t0+%v, 1) = %v, want %v", step.at, got, step.want)
		}
	}
}

func FuzzAdmit(f *testing.F) { fuzzProperty(f, checkAdmit) }
