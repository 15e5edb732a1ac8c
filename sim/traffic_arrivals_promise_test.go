package sim

import (
	"testing"
	"time"
)

// TestArrivalsOfMatchesNextArrivalPromise: the estimate's count is exact for
// every kind but Poisson (a burst begun counting whole), so it equals the
// arrivals nextArrival produces,
// including for runs that end exactly at an arrival, a nanosecond before or
// after it, and components with a Start or Stop.
func TestArrivalsOfMatchesNextArrivalPromise(t *testing.T) {
	ms := time.Millisecond
	arrivals := []Arrival{
		{Kind: ArrivalBurst, At: 100 * ms, Count: 4, Spread: 40 * ms},
		{Kind: ArrivalBurst, At: 100 * ms, Count: 3},
		{Kind: ArrivalBurst, At: 100 * ms, Count: 3, Stop: 100 * ms},
		{Kind: ArrivalConstant, Rate: Rate{Count: 3, Per: 100 * ms}},
		{Kind: ArrivalConstant, Rate: Rate{Count: 1, Per: 10 * ms}, Start: 10 * ms, Stop: 40 * ms},
		{Kind: ArrivalConstant, Rate: Rate{Count: 7, Per: 30 * ms}, Start: 3 * ms},
		{Kind: ArrivalOnOff, Rate: Rate{Count: 1, Per: 10 * ms}, On: 20 * ms, Off: 30 * ms},
		{Kind: ArrivalOnOff, Rate: Rate{Count: 1, Per: 10 * ms}, On: 25 * ms, Off: 5 * ms, Start: 7 * ms},
		{Kind: ArrivalOnOff, Rate: Rate{Count: 3, Per: 10 * ms}, On: 10 * ms, Off: 10 * ms, Stop: 75 * ms},
		{Kind: ArrivalIdleThenBurst, Idle: 50 * ms, Count: 2, Spread: 10 * ms},
		{Kind: ArrivalIdleThenBurst, Idle: 20 * ms, Count: 3, Spread: 30 * ms, Start: 5 * ms},
	}
	var stops []time.Duration
	for _, base := range []time.Duration{0, 10, 20, 25, 30, 40, 50, 55, 60, 100, 110, 115, 130, 200} {
		for _, d := range []time.Duration{-1, 0, 1} {
			if s := base*ms + d; s > 0 {
				stops = append(stops, s)
			}
		}
	}
	for i, a := range arrivals {
		for _, stop := range stops {
			got := arrivalsOf(a, stop)
			times := arrivalTimes(a, stop)
			want := float64(len(times))
			if a.Kind == ArrivalBurst || a.Kind == ArrivalIdleThenBurst {
				// A burst begun before the end counts whole: the estimate does
				// not cut a spread burst at the end. Each burst's first arrival
				// is at its start.
				want = float64((len(times) + a.Count - 1) / a.Count * a.Count)
			}
			if got != want {
				t.Errorf("arrival %d (%+v), run %v: arrivalsOf = %v, nextArrival made %v", i, a, stop, got, want)
			}
		}
	}
}
