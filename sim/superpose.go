package sim

import (
	"math"
	"math/bits"
	"time"
)

// superposable reports whether a group's clients can share one arrival stream:
// several clients whose only arrival component is Poisson. Their superposition
// is one Poisson stream at Count times the rate, each arrival from a client
// picked uniformly: the same process in distribution, with one pending event
// for the group instead of one per client. Everything else a client holds
// (its requests, retries, pacing, keys) stays its own.
func superposable(g *ClientGroup) bool {
	return g.Count > 1 && len(g.Arrivals) == 1 && g.Arrivals[0].Kind == ArrivalPoisson
}

// nextSuperposed is the time of the next arrival of a superposed group of n
// clients, each sending by a, drawn from st (the group's stream), or ok=false
// when there is none before stop.
func nextSuperposed(a *Arrival, n int, st *arrivalState, stop time.Duration) (at time.Duration, ok bool) {
	from := a.Start
	if st.k > 0 {
		from = st.last
	}
	mean := float64(a.Rate.Per) / (float64(a.Rate.Count) * float64(n))
	at = later(from, saturate(math.Round(st.rnd.exp1()*mean)))
	if at >= stop || (a.Stop > 0 && at >= a.Stop) {
		return 0, false
	}
	st.k++
	st.last = at
	return at, true
}

// pick is a client of n picked uniformly from the group's stream st.
func (st *arrivalState) pick(n int) int32 {
	hi, _ := bits.Mul64(st.rnd.next(), uint64(n))
	return int32(hi)
}
