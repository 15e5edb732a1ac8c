package sim

import (
	"math"
	"time"
)

// ceilSeconds is d in whole seconds, rounded up (as Retry-After states it).
func ceilSeconds(d time.Duration) int64 {
	return int64((d + time.Second - 1) / time.Second)
}

// later is now+d, saturated at the largest Duration instead of wrapping around.
// Instants past a run's end are never reached, so saturation changes nothing a
// run shows; it only keeps the event queue's order.
func later(now, d time.Duration) time.Duration {
	if d > 0 && now > math.MaxInt64-d {
		return math.MaxInt64
	}
	return now + d
}

// times is d×n for d, n ≥ 0, saturated at the largest Duration.
func times(d time.Duration, n int64) time.Duration {
	if n > 0 && d > math.MaxInt64/time.Duration(n) {
		return math.MaxInt64
	}
	return d * time.Duration(n)
}

// scaled is d×f for d ≥ 0, rounded to the nanosecond and saturated at the
// largest Duration; f zero (or 1) leaves d as it is.
func scaled(d time.Duration, f float64) time.Duration {
	if f == 0 || f == 1 {
		return d
	}
	x := math.Round(float64(d) * f)
	if x >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(x)
}
