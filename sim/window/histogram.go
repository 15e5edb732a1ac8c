package window

import (
	"math"
	"math/bits"
	"time"
)

// Histogram records durations in log-linear buckets: exact below 128ns, then 128
// buckets per power of two, so a percentile is within 1% of the true value.
// It holds the buckets of the powers of two it recorded in (1 KB each, at most
// 57 KB), so a histogram that records nothing, or durations of a few
// powers of two, holds little: a run builds several per lane, and a sweep
// thousands of runs. Recording allocates only when a value is the first in its
// power of two.
type Histogram struct {
	octaves []*octave // by bucket / subBuckets; nil where nothing was recorded
	n       int64
	sum     time.Duration
	max     time.Duration
}

// octave is the buckets of one power of two.
type octave [subBuckets]int64

const subBuckets = 128

// NewHistogram is an empty histogram, ready to record (IsZero is false); its
// buckets are allocated as values need them.
func NewHistogram() Histogram {
	return Histogram{octaves: make([]*octave, 0)}
}

// bucket is v's bucket, its power of two's buckets made when h has none.
func (h *Histogram) bucket(v time.Duration) *int64 {
	b := bucketOf(v)
	o := b / subBuckets
	if o >= len(h.octaves) || h.octaves[o] == nil {
		h.grow(o)
	}
	return &h.octaves[o][b%subBuckets]
}

// grow makes the buckets of power of two o.
func (h *Histogram) grow(o int) {
	if o >= len(h.octaves) {
		h.octaves = append(h.octaves, make([]*octave, o+1-len(h.octaves))...)
	}
	h.octaves[o] = new(octave)
}

func bucketOf(v time.Duration) int {
	u := uint64(max(v, 0))
	if u < subBuckets {
		return int(u)
	}
	shift := bits.Len64(u) - 8 // keep 8 significant bits: 128..255
	return (shift+1)*subBuckets + int(u>>shift) - subBuckets
}

// bucketTop is the largest value that falls in bucket i.
func bucketTop(i int) time.Duration {
	if i < subBuckets {
		return time.Duration(i)
	}
	shift := i/subBuckets - 1
	mant := uint64(i%subBuckets + subBuckets)
	return time.Duration((mant+1)<<shift - 1)
}

// Add records v (a negative v counts in the first bucket).
func (h *Histogram) Add(v time.Duration) {
	*h.bucket(v)++
	h.n++
	h.sum += v
	h.max = max(h.max, v)
}

// AddN records v n times.
func (h *Histogram) AddN(v time.Duration, n int64) {
	*h.bucket(v) += n
	h.n += n
	h.sum += v * time.Duration(n)
	h.max = max(h.max, v)
}

// Quantile is the smallest recorded bucket top with at least q of the samples
// at or below it: the nearest rank, ⌈q·n⌉ (a product a rounding error above a
// whole number is taken as that number).
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := int64(math.Ceil(q*float64(h.n) - 1e-9))
	rank = min(max(rank, 1), h.n)
	var seen int64
	for o, oct := range h.octaves {
		if oct == nil {
			continue
		}
		for j, c := range oct {
			if seen += c; seen >= rank {
				return min(bucketTop(o*subBuckets+j), h.max)
			}
		}
	}
	return h.max
}

// Reset empties h, keeping its buckets.
func (h *Histogram) Reset() {
	for _, oct := range h.octaves {
		if oct != nil {
			clear(oct[:])
		}
	}
	h.n, h.sum, h.max = 0, 0, 0
}

// Count is how many values h has recorded.
func (h *Histogram) Count() int64 { return h.n }

// IsZero reports whether h is the zero Histogram, with no buckets to record
// in (not made by NewHistogram).
func (h *Histogram) IsZero() bool { return h.octaves == nil }

// Percentiles are a distribution's summary: P50, P90 and P99 within 1%
// (log-linear buckets), Max exact, Count the number of samples. It is laid
// out as sim.Percentiles, which converts from it.
type Percentiles struct {
	Count              int64
	P50, P90, P99, Max time.Duration
	Mean               time.Duration
}

// Percentiles summarises what h has recorded; all zero when it holds nothing.
func (h *Histogram) Percentiles() Percentiles {
	p := Percentiles{Count: h.n, Max: h.max}
	if h.n == 0 {
		return p
	}
	p.P50, p.P90, p.P99 = h.Quantile(0.50), h.Quantile(0.90), h.Quantile(0.99)
	p.Mean = h.sum / time.Duration(h.n)
	return p
}
