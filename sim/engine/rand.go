package engine

import (
	"math"
	"time"
)

// Stream is a small seeded random stream (SplitMix64): one per client and
// purpose, so every lane sees the same draws for the same client (common random
// numbers). The zero value is a valid stream; derive one with NewStream. Not
// safe for concurrent use.
type Stream struct{ state uint64 }

// NewStream derives an independent stream from a run's seed and labels.
func NewStream(seed uint64, labels ...uint64) Stream {
	h := mix(seed ^ 0x9e3779b97f4a7c15)
	for _, l := range labels {
		h = mix(h ^ mix(l+0x632be59bd9b4e019))
	}
	return Stream{state: h}
}

func mix(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// Touch reads the stream without drawing from it, for a caller that brings
// it into the cache ahead of its draws: what it returns means nothing.
func (s *Stream) Touch() uint64 { return s.state }

// Uint64 is uniform over every uint64.
func (s *Stream) Uint64() uint64 {
	s.state += 0x9e3779b97f4a7c15
	return mix(s.state)
}

// Float64 is uniform in [0, 1).
func (s *Stream) Float64() float64 { return float64(s.Uint64()>>11) / (1 << 53) }

// Duration is uniform in [0, d]; zero when d ≤ 0.
func (s *Stream) Duration(d time.Duration) time.Duration {
	if d <= 0 {
		return 0
	}
	return time.Duration(s.Uint64() % (uint64(d) + 1))
}

// Between is uniform in [lo, hi].
func (s *Stream) Between(lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + s.Duration(hi-lo)
}

// Exp is exponential with the given mean, rounded to the nanosecond and
// saturated at the largest Duration.
func (s *Stream) Exp(mean time.Duration) time.Duration {
	return RoundNs(s.Exp1() * float64(mean))
}

// zigguratTail is where the exponential ziggurat's base layer ends.
const zigguratTail = 7.697117470131487

// Exp1 is exponential with mean 1, drawn by the ziggurat method (Marsaglia and
// Tsang 2000) on 53-bit uniforms: one draw, a multiply and a compare 97.8% of
// the time, a logarithm only in the rare tail and edge cases. The distribution
// is exact; the draws differ from −log(1−U).
func (s *Stream) Exp1() float64 {
	for {
		u := s.Uint64()
		i := u & 0xff
		j := u >> 11
		x := float64(int64(j)) * zigWE[i] // j < 2^53: converted exactly, and faster than from uint64
		if j < zigKE[i] {
			return x
		}
		if i == 0 {
			return zigguratTail - math.Log1p(-s.Float64())
		}
		if zigFE[i]+s.Float64()*(zigFE[i-1]-zigFE[i]) < math.Exp(-x) {
			return x
		}
	}
}

// RoundNs is saturate(math.Round(ns)) for ns ≥ 0: the nearest nanosecond,
// halves up, computed by truncation (math.Round's bit handling costs more).
// ns − trunc(ns) is exact, so the result is too (TestRoundNs).
func RoundNs(ns float64) time.Duration {
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

// AbsNormal is |Normal(mean, sd)| (Box–Muller), rounded to the nanosecond.
func (s *Stream) AbsNormal(mean, sd time.Duration) time.Duration {
	u1 := 1 - s.Float64() // (0, 1]
	u2 := s.Float64()
	z := math.Sqrt(-2*math.Log(u1)) * math.Cos(2*math.Pi*u2)
	return saturate(math.Abs(math.Round(float64(mean) + z*float64(sd))))
}
