package contention

import "math"

// meanInterval accumulates samples (Welford's method) and gives their mean with a
// 95% confidence interval for it, from Student's t: mean ± t(0.975, n−1)×s/√n.
// The zero value holds no samples.
type meanInterval struct {
	n        int
	mean, m2 float64
}

func (m *meanInterval) add(x float64) {
	m.n++
	d := x - m.mean
	m.mean += d / float64(m.n)
	m.m2 += d * (x - m.mean)
}

// bounds is the mean and its 95% interval; with fewer than two samples the
// spread is unknown and the interval is the mean alone.
func (m *meanInterval) bounds() (mean, low, high float64) {
	if m.n < 2 {
		return m.mean, m.mean, m.mean
	}
	sd := math.Sqrt(m.m2 / float64(m.n-1))
	half := studentT975(m.n-1) * sd / math.Sqrt(float64(m.n))
	return m.mean, m.mean - half, m.mean + half
}

// studentT975 is the 97.5th percentile of Student's t with df degrees of freedom
// (df ≥ 1): the tabulated values up to 30, then the Cornish–Fisher expansion
// about the normal's 1.959964, within 1e-4 of the exact value from df 30 on.
func studentT975(df int) float64 {
	table := [...]float64{12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
		2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
		2.0796, 2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423}
	if df <= len(table) {
		return table[df-1]
	}
	const z = 1.959964
	v := float64(df)
	z3, z5, z7 := z*z*z, z*z*z*z*z, z*z*z*z*z*z*z
	return z + (z3+z)/(4*v) + (5*z5+16*z3+3*z)/(96*v*v) + (3*z7+19*z5+17*z3-15*z)/(384*v*v*v)
}
