package algorithms

import (
	"testing"
	"time"
)

// A request costing exactly Burst that arrives far before TAT (time went
// backwards) can still be admitted once TAT has passed: RetryAfter is finite.
func TestGCRAFarBurstRetryAfter_s5(t *testing.T) {
	g, err := NewGCRA(Policy{Limit: 10, Window: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var s GCRAState
	if d := g.Decide(&s, 10*time.Second, 10); d.Verdict != Admit {
		t.Fatalf("Decide(10s, 10) = %v, want Admit", d.Verdict)
	}
	// TAT is now 11s; at 0 the full burst fits only once TAT is reached.
	d := g.Decide(&s, 0, 10)
	if d.Verdict != Refuse {
		t.Fatalf("Decide(0, 10) verdict = %v, want Refuse", d.Verdict)
	}
	if want := 11 * time.Second; d.RetryAfter != want {
		t.Errorf("Decide(0, 10).RetryAfter = %v, want %v (not Never: cost = Burst)", d.RetryAfter, want)
	}
}

// A refusal's Reset is the time until the whole quota is back: the newest
// logged entry's expiry.
func TestSlidingLogRefusedReset_s5(t *testing.T) {
	sl, err := NewSlidingLog(Policy{Limit: 2, Window: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var s SlidingLogState
	for _, at := range []time.Duration{0, 500 * time.Millisecond} {
		if d := sl.Decide(&s, at, 1); d.Verdict != Admit {
			t.Fatalf("Decide(%v, 1) = %v, want Admit", at, d.Verdict)
		}
	}
	d := sl.Decide(&s, 600*time.Millisecond, 1)
	if d.Verdict != Refuse {
		t.Fatalf("Decide(600ms, 1) = %v, want Refuse", d.Verdict)
	}
	if want := 900 * time.Millisecond; d.Reset != want {
		t.Errorf("Decide(600ms, 1).Reset = %v, want %v (newest entry at 500ms expires at 1.5s)", d.Reset, want)
	}
	if want := 400 * time.Millisecond; d.RetryAfter != want {
		t.Errorf("Decide(600ms, 1).RetryAfter = %v, want %v", d.RetryAfter, want)
	}
}
