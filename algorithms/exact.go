package algorithms

import (
	"fmt"
	"math"
	"math/bits"
	"time"
)

// pace is the rate Limit per Window reduced to lowest terms: units cost units every
// span nanoseconds, so one cost unit takes span/units ns (the emission interval T).
// Keeping both integers, instead of a float rate, is what makes every limiter exact.
type pace struct {
	units  int64 // L' = Limit / gcd(Limit, Window)
	span   int64 // W' = Window / gcd(Limit, Window)
	byUnit divisor
	bySpan divisor
}

func newPace(limit int64, window time.Duration) pace {
	g := gcd(limit, int64(window))
	p := pace{units: limit / g, span: int64(window) / g}
	p.byUnit, p.bySpan = newDivisor(p.units), newDivisor(p.span)
	return p
}

func gcd(a, b int64) int64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// checkScale reports an error unless (n+extra)×span+units fits in int64: the
// largest value the bucket-like limiters compute, with n+extra their largest
// admissible cost. n+extra is computed in 64 unsigned bits, so it cannot wrap.
func (p pace) checkScale(what string, n, extra int64) error {
	hi, lo := bits.Mul64(uint64(n)+uint64(extra), uint64(p.span))
	lo, carry := bits.Add64(lo, uint64(p.units), 0)
	if hi != 0 || carry != 0 || lo > math.MaxInt64 {
		return fmt.Errorf("%s %d at %d per %v overflows exact int64 arithmetic (%d × %d ns); use a smaller %s or a window with a larger common divisor",
			what, n, p.units, time.Duration(p.span), uint64(n)+uint64(extra), p.span, what)
	}
	return nil
}

// interval is cost×T as an exact duration.
func (p pace) interval(cost int64) exactDur { return p.fromUnits(cost * p.span) }

// fromUnits converts u, in units of 1/L' ns, to an exact duration. u ≥ 0.
func (p pace) fromUnits(u int64) exactDur {
	if p.units == 1 { // Limit divides Window, the common case
		return exactDur{ns: u}
	}
	q := p.byUnit.div(u)
	return exactDur{ns: q, frac: u - q*p.units}
}

// ceilUnits is ⌈u/L'⌉ ns, for u ≥ 0 in units of 1/L' ns.
func (p pace) ceilUnits(u int64) time.Duration {
	if p.units == 1 {
		return time.Duration(u)
	}
	q := p.byUnit.div(u)
	if q*p.units != u {
		q++
	}
	return time.Duration(q)
}

// toUnits converts d to units of 1/L' ns. The caller keeps d small enough to fit.
func (p pace) toUnits(d exactDur) int64 { return d.ns*p.units + d.frac }

// divisor divides by a fixed d ≥ 1 with a multiply instead of a hardware divide,
// which is several times slower and would dominate Decide: m = ⌊(2^64−1)/d⌋
// makes ⌊x×m/2^64⌉ short of x/d by less than 1, and one step corrects it.
type divisor struct {
	d, m uint64
}

func newDivisor(d int64) divisor { return divisor{d: uint64(d), m: math.MaxUint64 / uint64(d)} }

// div is ⌊x/d⌋ for 0 ≤ x < 2^63.
func (v divisor) div(x int64) int64 {
	q, _ := bits.Mul64(uint64(x), v.m)
	if uint64(x)-q*v.d >= v.d {
		q++
	}
	return int64(q)
}

// exactDur is a time or duration of ns + frac/L' nanoseconds, 0 ≤ frac < L'. It holds
// GCRA's theoretical arrival time and the leaky bucket's next free outlet slot exactly,
// however T = Window/Limit divides.
type exactDur struct {
	ns   int64
	frac int64
}

func at(now time.Duration) exactDur { return exactDur{ns: int64(now)} }

func (a exactDur) less(b exactDur) bool {
	return a.ns < b.ns || (a.ns == b.ns && a.frac < b.frac)
}

func (p pace) add(a, b exactDur) exactDur {
	s := exactDur{ns: a.ns + b.ns, frac: a.frac + b.frac}
	if s.frac >= p.units {
		s.ns++
		s.frac -= p.units
	}
	return s
}

// sub is a−b; the caller ensures a ≥ b.
func (p pace) sub(a, b exactDur) exactDur {
	d := exactDur{ns: a.ns - b.ns, frac: a.frac - b.frac}
	if d.frac < 0 {
		d.ns--
		d.frac += p.units
	}
	return d
}

// ceil rounds d up to whole nanoseconds.
func (d exactDur) ceil() time.Duration {
	if d.frac > 0 {
		return time.Duration(d.ns + 1)
	}
	return time.Duration(d.ns)
}

// badCost panics on a non-positive cost: the caller's bug, not traffic.
func badCost(method string, cost int64) {
	panic(fmt.Sprintf("algorithms: %s: cost must be at least 1, got %d", method, cost))
}
