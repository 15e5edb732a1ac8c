package sim

import (
	"math"
	"math/bits"
	"slices"
	"time"
)

// peakTracker finds, exactly, the most cost admitted for one key in any window of
// length window (over every start time), and how long each key's trailing window
// held more than limit. Admissions must be added in non-decreasing time. Memory
// per key is 40 B, 16 B more to time the windows over the limit, and the
// admissions inside its window; adding allocates nothing once the slab has grown
// to the most admissions held at once.
type peakTracker struct {
	window time.Duration
	limit  int64
	keys   []keyWindow
	spans  []overSpan // per key; nil when the tracker never holds more than limit (allow)
	slab   admissionSlab
	best   WindowPeak
	bestID int32
}

// overSpan is how long one key's window held more than the limit, up to last.
type overSpan struct {
	over time.Duration
	last time.Duration
}

type admission struct {
	at   time.Duration
	cost int64
}

// keyWindow is one key's admissions in (t−window, t], oldest first, in a ring
// of the slab whose size is a power of two, so that wrapping is a mask, not a
// division. The oldest is also kept here, so that a key holding one admission
// needs no ring, and finding that nothing expired reads no ring.
type keyWindow struct {
	off, size int32 // the ring: slab entries off … off+size−1; size 0 is none
	head, n   int32
	oldest    admission // the ring's first entry, or the only one without a ring
	sum       int64
}

// admissionSlab holds the rings of every key of a tracker in one slice. A ring
// whose key's window empties goes back to a free list of its size, for the next
// key that needs one: a million keys with an admission each cost 16 B each, and
// no ring is allocated on its own.
type admissionSlab struct {
	entries []admission
	free    [32][]int32 // log2 of a ring's size → offsets of free rings of that size
}

func (s *admissionSlab) alloc(size int32) int32 {
	class := bits.TrailingZeros32(uint32(size))
	if f := s.free[class]; len(f) > 0 {
		s.free[class] = f[:len(f)-1]
		return f[len(f)-1]
	}
	off := len(s.entries)
	if off+int(size) > math.MaxInt32 {
		panic("sim: peakTracker: more than 2^31 admissions in one window")
	}
	if cap(s.entries)-off < int(size) {
		// Doubling, where append would grow a large slice by a quarter: less copying.
		s.entries = slices.Grow(s.entries, max(int(size), off))
	}
	s.entries = s.entries[:off+int(size)]
	return int32(off)
}

func (s *admissionSlab) release(off, size int32) {
	class := bits.TrailingZeros32(uint32(size))
	s.free[class] = append(s.free[class], off)
}

// entry is k's admission j (0 is the oldest).
func (s *admissionSlab) entry(k *keyWindow, j int32) admission {
	if k.size == 0 {
		return k.oldest
	}
	return *s.at(k, j)
}

// at is entry j (0 is the oldest) of k's ring.
func (s *admissionSlab) at(k *keyWindow, j int32) *admission {
	return &s.entries[k.off+(k.head+j)&(k.size-1)]
}

func newPeakTracker(window time.Duration, limit int64, keys int) peakTracker {
	return peakTracker{window: window, limit: limit, keys: ownLines[keyWindow](keys), spans: ownLines[overSpan](keys), bestID: -1}
}

// newUntimedTracker is a tracker that keeps no time over the limit (overLimit
// is not to be called): for allow, which never holds more than limit, and for
// peaks whose time over the limit nobody reads.
func newUntimedTracker(window time.Duration, limit int64, keys int) peakTracker {
	return peakTracker{window: window, limit: limit, keys: ownLines[keyWindow](keys), bestID: -1}
}

func (p *peakTracker) add(key int32, at time.Duration, cost int64) {
	k := &p.keys[key]
	p.expire(k, key, at)
	p.advance(k, key, at)
	p.push(k, admission{at, cost})
	if k.sum > p.best.Count {
		oldest := k.oldest.at
		p.best = WindowPeak{Count: k.sum, Start: oldest, End: oldest + p.window, Limit: p.limit}
		p.bestID = key
	}
}

// expire drops k's admissions that have left the window (at+window ≤ now).
// Most calls find none to drop: that test is inlined, the dropping is not.
func (p *peakTracker) expire(k *keyWindow, key int32, now time.Duration) {
	if k.n > 0 && k.oldest.at+p.window <= now {
		p.drop(k, key, now)
	}
}

// drop is expire once k's oldest admission has left the window.
func (p *peakTracker) drop(k *keyWindow, key int32, now time.Duration) {
	var span *overSpan // nil when the tracker keeps no time over the limit
	if p.spans != nil {
		span = &p.spans[key]
	}
	for k.n > 0 {
		gone := k.oldest.at + p.window
		if gone > now {
			return
		}
		if span != nil {
			if k.sum > p.limit {
				span.over += gone - span.last
			}
			span.last = gone
		}
		k.sum -= k.oldest.cost
		k.n--
		if k.size > 0 {
			k.head = (k.head + 1) & (k.size - 1)
			if k.n > 0 {
				k.oldest = *p.slab.at(k, 0)
			}
		}
	}
	if k.size > 0 {
		p.slab.release(k.off, k.size)
		k.off, k.size, k.head = 0, 0, 0
	}
}

// advance accounts the time up to t at k's current sum, if the tracker times it.
func (p *peakTracker) advance(k *keyWindow, key int32, t time.Duration) {
	if p.spans == nil {
		return
	}
	s := &p.spans[key]
	if k.sum > p.limit {
		s.over += t - s.last
	}
	s.last = t
}

func (p *peakTracker) push(k *keyWindow, a admission) {
	if k.n == 0 {
		k.oldest = a
	} else {
		if k.n == k.size || k.size == 0 {
			p.grow(k)
		}
		*p.slab.at(k, k.n) = a
	}
	k.n++
	k.sum += a.cost
}

// grow moves k's ring to one twice its size.
func (p *peakTracker) grow(k *keyWindow) {
	size := max(2, 2*k.size)
	off := p.slab.alloc(size)
	for j := range k.n {
		p.slab.entries[off+j] = p.slab.entry(k, j)
	}
	if k.size > 0 {
		p.slab.release(k.off, k.size)
	}
	k.off, k.size, k.head = off, size, 0
}

// overLimit is the longest total time one key's window held more than the limit,
// counting the admissions still in the window until they expire. It does not
// change the tracker.
func (p *peakTracker) overLimit() time.Duration {
	var longest time.Duration
	for i := range p.keys {
		k := &p.keys[i]
		over, last := p.spans[i].over, p.spans[i].last
		sum := k.sum
		for j := int32(0); j < k.n && sum > p.limit; j++ {
			a := p.slab.entry(k, j)
			gone := a.at + p.window
			over += gone - last
			last = gone
			sum -= a.cost
		}
		longest = max(longest, over)
	}
	return longest
}

// allow is an exact sliding log's verdict on a request of cost for key at now,
// as algorithms.SlidingLog.Allow gives it: admitted when the cost admitted in
// (now−window, now] plus cost is at most the limit, and then recorded. A tracker
// used this way (newUntimedTracker) is the lanes' cross-check, in 40 B per key and
// the admissions inside its window, where a SlidingLogState holds 48 B and a
// ring of at least 8.
func (p *peakTracker) allow(key int32, now time.Duration, cost int64) bool {
	k := &p.keys[key]
	p.expire(k, key, now)
	if cost > p.limit-k.sum {
		return false
	}
	p.advance(k, key, now)
	p.push(k, admission{now, cost})
	return true
}
