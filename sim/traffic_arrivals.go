package sim

import (
	"math/bits"
	"time"

	"github.com/rlsim/rlsim/sim/engine"
)

// arrivalState is one client's progress through one component of its arrivals.
type arrivalState struct {
	k    int64         // arrivals produced so far
	last time.Duration // time of the latest (Poisson)
	rnd  engine.Stream // Poisson gaps
}

// gap is the exact interval between a constant rate's arrivals when it is a whole
// number of nanoseconds, else 0 (and scale computes each arrival exactly).
func gap(r Rate) time.Duration {
	if r.Count > 0 && r.Per%time.Duration(r.Count) == 0 {
		return r.Per / time.Duration(r.Count)
	}
	return 0
}

// nextArrival is the time of the next arrival of component a for a client, or
// ok=false when the component has no more before stop.
func nextArrival(a *Arrival, st *arrivalState, stop time.Duration) (at time.Duration, ok bool) {
	k := st.k
	switch a.Kind {
	case ArrivalBurst:
		if k >= int64(a.Count) {
			return 0, false
		}
		at = a.At + scale(a.Spread, k, int64(a.Count))
	case ArrivalConstant:
		if g := gap(a.Rate); g > 0 {
			at = a.Start + time.Duration(k)*g
		} else {
			at = a.Start + scale(a.Rate.Per, k, a.Rate.Count)
		}
	case ArrivalPoisson:
		from := a.Start
		if k > 0 {
			from = st.last
		}
		at = later(from, st.rnd.Exp(a.Rate.Per/time.Duration(a.Rate.Count)))
	case ArrivalOnOff:
		perCycle := countIn(a.On, a.Rate)
		cycle, j := k/perCycle, k%perCycle
		at = later(later(a.Start, times(a.On+a.Off, cycle)), scale(a.Rate.Per, j, a.Rate.Count))
	case ArrivalIdleThenBurst:
		cycle, j := k/int64(a.Count), k%int64(a.Count)
		at = later(later(a.Start+a.Idle, times(a.Idle+a.Spread, cycle)), scale(a.Spread, j, int64(a.Count)))
	}
	if at >= stop || (a.Stop > 0 && at >= a.Stop) {
		return 0, false
	}
	st.k++
	st.last = at
	return at, true
}

// scale is d×k/n, exactly, without overflow for any k < n×2^63/d.
func scale(d time.Duration, k, n int64) time.Duration {
	hi, lo := bits.Mul64(uint64(d), uint64(k))
	if hi >= uint64(n) {
		return 1<<63 - 1
	}
	q, _ := bits.Div64(hi, lo, uint64(n))
	if q > 1<<63-1 {
		return 1<<63 - 1
	}
	return time.Duration(q)
}

// countIn is how many arrivals at rate r start within a span of d (at least 1).
func countIn(d time.Duration, r Rate) int64 {
	// Arrivals at j×Per/Count < d: j < d×Count/Per, so ceil(d×Count/Per).
	hi, lo := bits.Mul64(uint64(d), uint64(r.Count))
	if hi >= uint64(r.Per) {
		return 1<<63 - 1
	}
	q, rem := bits.Div64(hi, lo, uint64(r.Per))
	if rem > 0 {
		q++
	}
	return max(int64(q), 1)
}
