package sim

import (
	"math"
	"time"
)

// stream is a small seeded random stream (SplitMix64): one per client and purpose,
// so every lane sees the same draws for the same client (common random numbers).
// The zero value is a valid stream; derive seeds with streamFor.
type stream struct{ state uint64 }

// streamFor derives an independent stream from the run's seed and labels.
func streamFor(seed uint64, labels ...uint64) stream {
	h := mix(seed ^ 0x9e3779b97f4a7c15)
	for _, l := range labels {
		h = mix(h ^ mix(l+0x632be59bd9b4e019))
	}
	return stream{state: h}
}

func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func (s *stream) next() uint64 {
	s.state += 0x9e3779b97f4a7c15
	return mix(s.state)
}

// float is uniform in [0, 1).
func (s *stream) float() float64 { return float64(s.next()>>11) / (1 << 53) }

// duration is uniform in [0, d]; zero when d ≤ 0.
func (s *stream) duration(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return time.Duration(s.next() % (uint64(d) + 1))
}

// between is uniform in [lo, hi].
func (s *stream) between(lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + s.duration(hi-lo)
}

// exp is exponential with the given mean, rounded to the nanosecond and
// saturated at the largest Duration.
func (s *stream) exp(mean time.Duration) time.Duration {
	return roundNs(s.exp1() * float64(mean))
}

// zigguratTail is where the exponential ziggurat's base layer ends.
const zigguratTail = 7.697117470131487

// exp1 is exponential with mean 1, drawn by the ziggurat method (Marsaglia and
// Tsang 2000) on 53-bit uniforms: one draw, a multiply and a compare 97.8% of
// the time, a logarithm only in the rare tail and edge cases. The distribution
// is exact; the draws differ from −log(1−U).
func (s *stream) exp1() float64 {
	for {
		u := s.next()
		i := u & 0xff
		j := u >> 11
		x := float64(int64(j)) * zigWE[i] // j < 2^53: converted exactly, and faster than from uint64
		if j < zigKE[i] {
			return x
		}
		if i == 0 {
			return zigguratTail - math.Log1p(-s.float())
		}
		if zigFE[i]+s.float()*(zigFE[i-1]-zigFE[i]) < math.Exp(-x) {
			return x
		}
	}
}

// roundNs is saturate(math.Round(ns)) for ns ≥ 0: the nearest nanosecond,
// halves up, computed by truncation (math.Round's bit handling costs more).
// ns − trunc(ns) is exact, so the result is too (TestRoundNs).
func roundNs(ns float64) time.Duration {
	if ns >= math.MaxInt64 {
		return math.MaxInt64
	}
	whole := math.Trunc(ns) // one instruction where the processor has it, ahead of the conversion
	t := time.Duration(whole)
	if ns-whole >= 0.5 {
		t++
	}
	return t
}

// saturate converts ns to a Duration, the largest one if ns is beyond it.
func saturate(ns float64) time.Duration {
	if ns >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(ns)
}

// absNormal is |Normal(mean, sd)| (Box–Muller), rounded to the nanosecond.
func (s *stream) absNormal(mean, sd time.Duration) time.Duration {
	u1 := 1 - s.float() // (0, 1]
	u2 := s.float()
	z := math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
	return saturate(math.Abs(math.Round(float64(mean) + z*float64(sd))))
}
