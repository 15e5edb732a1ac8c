package sweep

import (
	"math"

	"github.com/rlsim/rlsim/run"
)

// Spread is a figure over several seeds: its mean and the half-width of its
// 95% confidence interval (Student's t with N-1 degrees of freedom), so the
// interval is Mean ± Half. N counts the seeds that measured it (a p99 of no
// successes measures nothing); Half is 0 when N < 2.
type Spread struct {
	N    int
	Mean float64
	Half float64
}

// SpreadOf is the spread of values, NaNs left out; the mean of none is NaN.
func SpreadOf(values []run.Num) Spread {
	var s Spread
	var sum float64
	for _, v := range values {
		if !math.IsNaN(float64(v)) {
			s.N++
			sum += float64(v)
		}
	}
	if s.N == 0 {
		return Spread{Mean: math.NaN()}
	}
	s.Mean = sum / float64(s.N)
	if s.N < 2 {
		return s
	}
	var ss float64
	for _, v := range values {
		if !math.IsNaN(float64(v)) {
			d := float64(v) - s.Mean
			ss += d * d
		}
	}
	sd := math.Sqrt(ss / float64(s.N-1))
	s.Half = T975(s.N-1) * sd / math.Sqrt(float64(s.N))
	return s
}

// Lo and Hi are the ends of the interval.
func (s Spread) Lo() float64 { return s.Mean - s.Half }
func (s Spread) Hi() float64 { return s.Mean + s.Half }

// Differs reports whether s and o differ beyond their spread: their 95%
// intervals do not overlap. With one seed each, any difference counts.
func (s Spread) Differs(o Spread) bool {
	if math.IsNaN(s.Mean) || math.IsNaN(o.Mean) {
		return false
	}
	return s.Lo() > o.Hi() || o.Lo() > s.Hi()
}

// t975 are Student's t 97.5% quantiles for 1 to 30 degrees of freedom.
var t975 = [...]float64{12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624,
	2.306004, 2.262157, 2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
	2.109816, 2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899, 2.059539,
	2.055529, 2.051831, 2.048407, 2.045230, 2.042272}

// T975 is the 97.5% quantile of Student's t with df degrees of freedom, the
// factor of a two-sided 95% interval: from a table up to 30, beyond it the
// Cornish-Fisher expansion around the normal quantile (error under 1e-5).
func T975(df int) float64 {
	if df < 1 {
		panic("sweep.T975: degrees of freedom below 1")
	}
	if df <= len(t975) {
		return t975[df-1]
	}
	const z = 1.959963984540054
	v := float64(df)
	z3, z5, z7 := z*z*z, math.Pow(z, 5), math.Pow(z, 7)
	return z + (z3+z)/(4*v) + (5*z5+16*z3+3*z)/(96*v*v) + (3*z7+19*z5+17*z3-15*z)/(384*v*v*v)
}
