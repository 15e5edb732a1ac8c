package sim

import (
	"math/bits"
	"time"

	"github.com/rlsim/rlsim/sim/engine"
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
// when there is none before stop. means caches the gap's mean between calls.
func nextSuperposed(a *Arrival, n int, st *arrivalState, stop time.Duration, means *superposedMean) (at time.Duration, ok bool) {
	from := a.Start
	if st.k > 0 {
		from = st.last
	}
	d := newSuperposedDraw(a, n, stop, means)
	return d.after(from, st.rnd.Exp1(), st)
}

// superposedDraw is what drawing a superposed group's arrivals needs, worked
// out once for many draws: the mean gap and the time no arrival reaches.
type superposedDraw struct {
	mean float64
	stop time.Duration
}

func newSuperposedDraw(a *Arrival, n int, stop time.Duration, means *superposedMean) superposedDraw {
	if a.Stop > 0 {
		stop = min(stop, a.Stop)
	}
	return superposedDraw{mean: means.of(a.Rate, n), stop: stop}
}

// after is the next arrival after one at from (or the component's start),
// gap1 after it in units of the mean gap (an exponential of mean 1 drawn from
// st's stream), or ok=false when there is none before the stop. It counts the
// arrival in st.
func (d *superposedDraw) after(from time.Duration, gap1 float64, st *arrivalState) (at time.Duration, ok bool) {
	at = later(from, engine.RoundNs(gap1*d.mean))
	if at >= d.stop {
		return 0, false
	}
	st.k++
	st.last = at
	return at, true
}

// superposedMean is a superposed group's mean gap in ns, as a float, kept with
// the rate and count it was computed for: a division per arrival saved, the
// same float every time. The zero value holds none.
type superposedMean struct {
	rate Rate
	n    int
	mean float64
}

// of is the mean gap between arrivals of n clients each sending at rate.
func (m *superposedMean) of(rate Rate, n int) float64 {
	if rate != m.rate || n != m.n {
		m.rate, m.n = rate, n
		m.mean = float64(rate.Per) / (float64(rate.Count) * float64(n))
	}
	return m.mean
}

// pick is a client of n picked uniformly from the group's stream st.
func (st *arrivalState) pick(n int) int32 {
	hi, _ := bits.Mul64(st.rnd.Uint64(), uint64(n))
	return int32(hi)
}

// oneShot reports whether each client of a group arrives once: its only
// arrival component is a burst of one. Its clients need no arrival state: the
// one arrival is the component's first, and nothing follows it.
func oneShot(g *ClientGroup) bool {
	return !oneShotOff && len(g.Arrivals) == 1 && g.Arrivals[0].Kind == ArrivalBurst && g.Arrivals[0].Count == 1
}
