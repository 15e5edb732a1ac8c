package algorithms

import (
	"math/rand/v2"
	"strings"
	"testing"
	"testing/quick"
	"time"
)

// TestKongAdvancedDocs holds rate-limiting-advanced to the examples of its pages.
func TestKongAdvancedDocs(t *testing.T) {
	sec := time.Second
	// [WT]: limit 10 per 60 s; 12 requests in one minute: 10 accepted, 2 rejected,
	// for both window types.
	burst := func(from time.Duration) []step {
		var ss []step
		for i := range 12 {
			at := from + time.Duration(i)*5*sec
			if i < 10 {
				ss = append(ss, admit(at))
			} else {
				ss = append(ss, step{at: at, cost: 1, verdict: Refuse, retry: -1})
			}
		}
		return ss
	}
	for _, wt := range []KongAdvancedWindowType{KongFixed, KongSliding} {
		k := must(NewKongAdvanced(KongAdvancedParams{Limit: 10, WindowSize: 60, WindowType: wt}))
		var s KongAdvancedState
		for _, st := range burst(0) {
			if d := k.Decide(&s, st.at, 1); d.Verdict != st.verdict {
				t.Fatalf("%s: Decide(%s) = %v, want %v", wt, t0plus(st.at), d.Verdict, st.verdict)
			}
		}
	}
	// [WT]: sliding, the client keeps 12 per minute: "it appears to the client
	// that the window is never reset. The algorithm counts the response 429 and
	// the API is blocked indefinitely." With disable_penalty the client gets
	// through again as the previous minute's weight falls.
	pen := must(NewKongAdvanced(KongAdvancedParams{Limit: 10, WindowSize: 60}))
	nopen := must(NewKongAdvanced(KongAdvancedParams{Limit: 10, WindowSize: 60, DisablePenalty: true}))
	// Without the penalty minute m sees previous = what minute m−1 admitted, and
	// a request e s in passes iff previous×(60−e)/60 + current + 1 ≤ 10. Minute 1
	// (previous 10): e ≥ 6(current+1): e = 10,15,20,25,30,40,45,50,55, 9 pass.
	// Minute 2 on (previous 9): e ≥ 20×current/3: e = 0,10,15,20,30,35,40,50,55.
	var ps, ns KongAdvancedState
	wantPerMinute := []int{10, 9, 9, 9, 9}
	for m := range 5 {
		n := 0
		for i := range 12 {
			at := time.Duration(m)*time.Minute + time.Duration(i)*5*sec
			dp, dn := pen.Decide(&ps, at, 1), nopen.Decide(&ns, at, 1)
			if m > 0 && dp.Admitted() {
				t.Fatalf("with the penalty, minute %d request %d was admitted", m, i)
			}
			if dn.Admitted() {
				n++
			}
		}
		if n != wantPerMinute[m] {
			t.Fatalf("disable_penalty: minute %d admitted %d of 12, want %d", m, n, wantPerMinute[m])
		}
	}

	// [LIB]'s worked example: current 10, previous 20, window 60, 30 s in: rate 20.
	lib := must(NewKongAdvanced(KongAdvancedParams{Limit: 20, WindowSize: 60, DisablePenalty: true}))
	var ls KongAdvancedState
	lib.Charge(&ls, 0, 20)
	lib.Charge(&ls, 60*sec, 9)
	if d := lib.Decide(&ls, 90*sec, 1); !d.Admitted() { // 10 + 20×0.5 = 20 ≤ 20
		t.Fatalf("[LIB] example: rate 20 of 20 refused")
	}
	if d := lib.Decide(&ls, 90*sec+999*ms, 1); d.Admitted() { // whole seconds: still 30 s in, 21 > 20
		t.Fatalf("[LIB] example: rate 21 of 20 admitted")
	}
	// At 93 s: 11 + 20×27/60 = 20 ≤ 20. RetryAfter from 90.999 s is to 93 s.
	var again = ls
	if d := lib.Decide(&again, 90*sec+999*ms, 1); d.RetryAfter != 2*sec+1*ms || !d.RetryAfterExact {
		t.Fatalf("[LIB] RetryAfter = %v, want 2.001s (the 93rd second)", d.RetryAfter)
	}
	if d := lib.Decide(&ls, 93*sec, 1); !d.Admitted() {
		t.Fatalf("[LIB] at 93 s: 11 + 20×27/60 = 20 refused")
	}

	// [WT]: 10 requests in the 59th second, then 10 in the first second of the
	// next window: fixed accepts all 20, sliding refuses the second ten.
	for _, c := range []struct {
		wt   KongAdvancedWindowType
		want int
	}{{KongFixed, 20}, {KongSliding, 10}} {
		k := must(NewKongAdvanced(KongAdvancedParams{Limit: 10, WindowSize: 60, WindowType: c.wt}))
		var s KongAdvancedState
		n := 0
		for i := range 20 {
			at := 59*sec + time.Duration(i%10)*90*ms + time.Duration(i/10)*sec
			if k.Decide(&s, at, 1).Admitted() {
				n++
			}
		}
		if n != c.want {
			t.Fatalf("%s: %d of 20 admitted around the boundary, want %d", c.wt, n, c.want)
		}
	}
}

func TestKongAdvancedParams(t *testing.T) {
	_, err := NewKongAdvanced(KongAdvancedParams{Limit: 0, WindowSize: -5, WindowType: "rolling"})
	if err == nil || !strings.Contains(err.Error(), "limit must be positive") || !strings.Contains(err.Error(), "window_size") || !strings.Contains(err.Error(), `window_type "rolling"`) {
		t.Fatalf("NewKongAdvanced(bad) = %v, want all three problems", err)
	}
	if _, err := KongAdvancedParamsOf(Policy{Limit: 5, Window: 1500 * ms}); err == nil || !strings.Contains(err.Error(), "whole seconds") {
		t.Fatalf("KongAdvancedParamsOf(1.5s) = %v", err)
	}
	if x, err := KongAdvancedParamsOf(Policy{Limit: 5, Window: 30 * time.Second}); err != nil || x.Limit != 5 || x.WindowSize != 30 || x.WindowType != "" || x.DisablePenalty {
		t.Fatalf("KongAdvancedParamsOf(5/30s) = %+v, %v", x, err)
	}
}

// TestKongAdvancedTwins: with Epoch zero and requests on whole seconds,
// sliding with disable_penalty is the sliding window counter lane, the default
// penalty is that lane with every refusal charged, and fixed is FixedWindow
// (with charged refusals under the penalty). Off whole seconds the verdict is
// the one taken at the whole second (ngx.time()).
func TestKongAdvancedTwins(t *testing.T) {
	check := func(seed uint64) bool {
		r := rand.New(rand.NewPCG(seed, 13))
		p := Policy{Limit: 1 + r.Int64N(20), Window: time.Duration(1+r.Int64N(120)) * time.Second}
		x := must(KongAdvancedParamsOf(p))
		x.WindowType = []KongAdvancedWindowType{KongSliding, KongFixed}[r.IntN(2)]
		x.DisablePenalty = r.IntN(2) == 0
		k := must(NewKongAdvanced(x))
		sw, fw := must(NewSlidingWindowCounter(p)), must(NewFixedWindow(p))
		var ks KongAdvancedState
		var ss SlidingWindowCounterState
		var fs FixedWindowState
		var now time.Duration
		for i := range r.IntN(300) {
			now += time.Duration(r.Int64N(int64(p.Window)/3 + 1))
			whole := now.Truncate(time.Second)
			cost := int64(1)
			if r.IntN(6) == 0 {
				cost = 1 + r.Int64N(p.Limit+1)
			}
			got := k.Decide(&ks, now, cost)
			var want Decision
			if x.WindowType == KongSliding {
				want = sw.Decide(&ss, whole, cost)
				if !want.Admitted() && !x.DisablePenalty {
					sw.Charge(&ss, whole, cost)
				}
			} else {
				want = fw.Decide(&fs, whole, cost)
				if !want.Admitted() && !x.DisablePenalty {
					fw.Charge(&fs, whole, cost)
				}
			}
			if got.Verdict != want.Verdict {
				t.Logf("seed %d %+v request %d at %v cost %d: kong %+v, twin %+v", seed, x, i, now, cost, got, want)
				return false
			}
			// RetryAfter lands on the first whole second that admits: one second earlier refuses.
			if !got.Admitted() && got.RetryAfter != Never {
				if (now+got.RetryAfter)%time.Second != 0 {
					t.Logf("seed %d: RetryAfter %v from %v is not on a second", seed, got.RetryAfter, now)
					return false
				}
				probe := ks
				if !k.Decide(&probe, now+got.RetryAfter, cost).Admitted() {
					t.Logf("seed %d: retried after %v and refused", seed, got.RetryAfter)
					return false
				}
				probe = ks
				if got.RetryAfter > time.Second && k.Decide(&probe, now+got.RetryAfter-time.Second, cost).Admitted() {
					t.Logf("seed %d: admitted a second before RetryAfter %v", seed, got.RetryAfter)
					return false
				}
			}
		}
		return true
	}
	if err := quick.Check(check, &quick.Config{MaxCount: 300}); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkKongAdvancedDecide(b *testing.B) {
	k := must(NewKongAdvanced(KongAdvancedParams{Limit: benchPolicy.Limit, WindowSize: 1}))
	var s KongAdvancedState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		k.Decide(&s, now, 1)
	}
}

// BenchmarkKongAdvancedNoPenaltyDecide refuses as often as the sliding window
// counter's benchmark (the penalty one refuses nearly every request, each
// computing its exact RetryAfter).
func BenchmarkKongAdvancedNoPenaltyDecide(b *testing.B) {
	k := must(NewKongAdvanced(KongAdvancedParams{Limit: benchPolicy.Limit, WindowSize: 1, DisablePenalty: true}))
	var s KongAdvancedState
	var now time.Duration
	b.ReportAllocs()
	for range b.N {
		now += benchStep
		k.Decide(&s, now, 1)
	}
}
