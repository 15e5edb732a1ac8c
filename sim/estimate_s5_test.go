package sim

import (
	"testing"
	"time"
)

// A request always refused makes its first attempt and then every retry that
// fits in the run, up to max_attempts in all.
func TestAttemptsPerRequestCountsFirst_s5(t *testing.T) {
	end := 10 * time.Second
	r := Retry{Kind: RetryFixed, Delay: 5 * time.Second}
	fit := retriesThatFit(r, end, 0) // retries at 5s and 10s
	if fit != 2 {
		t.Fatalf("retriesThatFit(fixed 5s, 10s) = %v, want 2", fit)
	}
	for _, c := range []struct {
		max  int
		want float64
	}{
		{0, 3},  // no cap: first attempt + 2 retries
		{10, 3}, // cap above what fits
		{3, 3},  // cap equal to what fits
		{2, 2},  // cap below what fits
	} {
		r.MaxAttempts = c.max
		if got := attemptsPerRequest(1, r, end, float64(time.Second), 0); got != c.want {
			t.Errorf("attemptsPerRequest(p=1, fixed 5s, max %d, 10s) = %v, want %v", c.max, got, c.want)
		}
	}
}

// Idle-then-burst sends its first burst at Start+Idle; a run stopping exactly
// then sends nothing, one stopping a nanosecond later sends one burst.
func TestArrivalsOfIdleBurstAtStop_s5(t *testing.T) {
	a := Arrival{Kind: ArrivalIdleThenBurst, Start: time.Second, Idle: 2 * time.Second, Spread: time.Second, Count: 5}
	if got := arrivalsOf(a, 3*time.Second); got != 0 {
		t.Errorf("arrivalsOf(idle 2s from 1s, run 3s) = %v, want 0 (the burst is due at the stop)", got)
	}
	if got := arrivalsOf(a, 3*time.Second+1); got != 5 {
		t.Errorf("arrivalsOf(idle 2s from 1s, run 3s+1ns) = %v, want 5", got)
	}
}
