package sim

import (
	"time"

	"github.com/rlsim/rlsim/sim/engine"
)

// backoff is the sleep before retry number n of an exponential policy, given the
// previous sleep (for decorrelated jitter; zero before the first retry). This is
// rlsim's one convention: a request's first attempt is attempt 1, its first retry
// is retry n = 1 (attempt 2), and the sleep before retry n is min(cap, base×2ⁿ⁻¹),
// so base is the first sleep. Jitter as in the AWS Architecture Blog's
// "Exponential Backoff And Jitter":
//
//	none:         min(cap, base×2ⁿ⁻¹)
//	full:         uniform(0, that)
//	equal:        that/2 + uniform(0, that/2)
//	decorrelated: min(cap, uniform(base, 3×previous)), previous starting at base
//	no_backoff:   0
//
// That blog's simulator sleeps base×2ⁿ instead (see ScheduleBrooker).
func backoff(r Retry, n int, previous time.Duration, rnd *engine.Stream) time.Duration {
	if r.Jitter == JitterNoBackoff {
		return 0
	}
	if r.Jitter == JitterDecorrelated {
		if previous < r.Base {
			previous = r.Base
		}
		return min(r.Cap, rnd.Between(r.Base, later(previous, 2*min(previous, r.Cap))))
	}
	sleep := exponential(r.Base, r.Cap, n)
	switch r.Jitter {
	case JitterFull:
		return rnd.Duration(sleep)
	case JitterEqual:
		return sleep/2 + rnd.Duration(sleep-sleep/2)
	}
	return sleep
}

// exponential is min(cap, base×2ⁿ⁻¹) without overflow.
func exponential(base, cap time.Duration, n int) time.Duration {
	if base <= 0 {
		return 0
	}
	sleep := base
	for i := 1; i < n && sleep < cap; i++ {
		if sleep > cap/2 {
			return cap
		}
		sleep *= 2
	}
	return min(sleep, cap)
}
