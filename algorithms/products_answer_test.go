package algorithms

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// TestTraefikAnswerSteps walks Traefik's Answer through TestProductQueueSteps'
// limiter (2 per second, burst 1, maxDelay 1s/(2×2) = 250ms): a wait of
// exactly maxDelay is Decide's delay, left to it; one beyond is refused with
// the reservation cancelled and Retry-After ⌈wait⌉ in whole seconds.
func TestTraefikAnswerSteps(t *testing.T) {
	tr := must(NewTraefik(TraefikParams{Average: 2, Period: time.Second, Burst: 1}))
	var s TraefikState
	for i, step := range []struct {
		at                time.Duration
		retryAfter        time.Duration
		admitted, refused bool
	}{
		{0, 0, true, false},                                // a new limiter: 1 token
		{250 * time.Millisecond, 0, false, false},          // 0.5 owed: 250ms, maxDelay itself: Decide delays
		{250 * time.Millisecond, time.Second, false, true}, // 1.5 owed: 750ms > 250ms, ⌈0.75s⌉
	} {
		before := s
		retryAfter, admitted, refused := tr.Answer(&s, step.at, 1)
		if retryAfter != step.retryAfter || admitted != step.admitted || refused != step.refused {
			t.Errorf("step %d: Answer(t0+%v, 1) = %v, %v, %v, want %v, %v, %v", i, step.at, retryAfter, admitted, refused, step.retryAfter, step.admitted, step.refused)
		}
		if !admitted && !refused {
			if s != before {
				t.Errorf("step %d: Answer(t0+%v, 1) answered nothing but changed the state", i, step.at)
			}
			if d := tr.Decide(&s, step.at, 1); d.Verdict != Delay || d.Delay != 250*time.Millisecond {
				t.Errorf("step %d: Decide(t0+%v, 1) = %+v, want a delay of 250ms", i, step.at, d)
			}
		}
	}
}

// TestRetryAfterHeaderIsTheFloatCeiling holds retryAfterHeader's integer
// ceiling to Traefik's float one, ⌈delay.Seconds()⌉, on whole seconds and a
// nanosecond either side, up to and past exactSeconds, and on arbitrary delays.
func TestRetryAfterHeaderIsTheFloatCeiling(t *testing.T) {
	float := func(d time.Duration) time.Duration {
		sec := math.Ceil(d.Seconds())
		if sec >= float64(math.MaxInt64/int64(time.Second)) {
			return Never
		}
		return time.Duration(sec) * time.Second
	}
	var delays []time.Duration
	for _, sec := range []time.Duration{0, 1, 2, 59, 60, 3600, 1 << 20, 1<<22 - 1, 1 << 22, 1<<22 + 1, 1 << 30, 1 << 33} {
		for _, ns := range []time.Duration{-1, 0, 1, 499_999_999, 500_000_000, 999_999_999} {
			delays = append(delays, sec*time.Second+ns)
		}
	}
	r := rand.New(rand.NewPCG(7, 11))
	for range 100_000 {
		delays = append(delays, time.Duration(r.Int64N(int64(exactSeconds)+int64(time.Hour))))
	}
	for _, d := range delays {
		if d < 0 {
			continue
		}
		if got, want := retryAfterHeader(d), float(d); got != want {
			t.Fatalf("retryAfterHeader(%v) = %v, want ⌈Seconds()⌉ = %v", d, got, want)
		}
	}
}
