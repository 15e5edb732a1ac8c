package sim

import "time"

// peakTracker finds, exactly, the most cost admitted for one key in any window of
// length window (over every start time), and how long each key's trailing window
// held more than limit. Admissions must be added in non-decreasing time. Memory
// per key is the admissions inside one window; adding allocates nothing once a
// key's ring has grown to its busiest window.
type peakTracker struct {
	window time.Duration
	limit  int64
	keys   []keyWindow
	best   WindowPeak
	bestID int32
}

type admission struct {
	at   time.Duration
	cost int64
}

// keyWindow is one key's admissions in (t−window, t], oldest first, in a ring
// whose size is a power of two, so that wrapping is a mask, not a division.
type keyWindow struct {
	ring    []admission
	head, n int
	sum     int64
	over    time.Duration // time spent with sum > limit, up to last
	last    time.Duration
}

func newPeakTracker(window time.Duration, limit int64, keys int) peakTracker {
	return peakTracker{window: window, limit: limit, keys: make([]keyWindow, keys), bestID: -1}
}

func (p *peakTracker) add(key int32, at time.Duration, cost int64) {
	k := &p.keys[key]
	k.expire(at, p.window, p.limit)
	k.advance(at, p.limit)
	k.push(admission{at, cost})
	if k.sum > p.best.Count {
		oldest := k.ring[k.head].at
		p.best = WindowPeak{Count: k.sum, Start: oldest, End: oldest + p.window, Limit: p.limit}
		p.bestID = key
	}
}

// expire drops admissions that have left the window (at+window ≤ now).
func (k *keyWindow) expire(now, window time.Duration, limit int64) {
	for k.n > 0 {
		a := k.ring[k.head]
		gone := a.at + window
		if gone > now {
			return
		}
		k.advance(gone, limit)
		k.sum -= a.cost
		k.head = (k.head + 1) & (len(k.ring) - 1)
		k.n--
	}
}

// advance accounts the time up to t at the current sum.
func (k *keyWindow) advance(t time.Duration, limit int64) {
	if k.sum > limit {
		k.over += t - k.last
	}
	k.last = t
}

func (k *keyWindow) push(a admission) {
	if k.n == len(k.ring) {
		k.grow()
	}
	k.ring[(k.head+k.n)&(len(k.ring)-1)] = a
	k.n++
	k.sum += a.cost
}

func (k *keyWindow) grow() {
	ring := make([]admission, max(8, 2*len(k.ring)))
	for i := range k.n {
		ring[i] = k.ring[(k.head+i)&(len(k.ring)-1)]
	}
	k.ring, k.head = ring, 0
}

// overLimit is the longest total time one key's window held more than the limit,
// counting the admissions still in the window until they expire. It does not
// change the tracker.
func (p *peakTracker) overLimit() time.Duration {
	var longest time.Duration
	for i := range p.keys {
		k := p.keys[i] // a copy: the tail is accounted without changing the tracker
		over := k.over
		sum, last := k.sum, k.last
		for j := 0; j < k.n && sum > p.limit; j++ {
			a := k.ring[(k.head+j)&(len(k.ring)-1)]
			gone := a.at + p.window
			over += gone - last
			last = gone
			sum -= a.cost
		}
		longest = max(longest, over)
	}
	return longest
}
