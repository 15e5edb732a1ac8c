package sim

import (
	"math/bits"
	"time"
)

// histogram records durations in log-linear buckets: exact below 128ns, then 128
// buckets per power of two, so a percentile is within 1% of the true value.
// Memory is fixed (about 58 KB); recording allocates nothing.
type histogram struct {
	counts []int64
	n      int64
	sum    time.Duration
	max    time.Duration
}

const subBuckets = 128

func newHistogram() histogram {
	return histogram{counts: make([]int64, 58*subBuckets)}
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

func (h *histogram) add(v time.Duration) {
	h.counts[bucketOf(v)]++
	h.n++
	h.sum += v
	h.max = max(h.max, v)
}

// addN records v n times.
func (h *histogram) addN(v time.Duration, n int64) {
	h.counts[bucketOf(v)] += n
	h.n += n
	h.sum += v * time.Duration(n)
	h.max = max(h.max, v)
}

// quantile is the smallest recorded bucket top with at least q of the samples at or below it.
func (h *histogram) quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := int64(q*float64(h.n) + 0.5)
	rank = min(max(rank, 1), h.n)
	var seen int64
	for i, c := range h.counts {
		seen += c
		if seen >= rank {
			return min(bucketTop(i), h.max)
		}
	}
	return h.max
}

func (h *histogram) percentiles() Percentiles {
	p := Percentiles{Count: h.n, Max: h.max}
	if h.n == 0 {
		return p
	}
	p.P50, p.P90, p.P99 = h.quantile(0.50), h.quantile(0.90), h.quantile(0.99)
	p.Mean = h.sum / time.Duration(h.n)
	return p
}
