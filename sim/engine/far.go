package engine

import (
	"math/bits"
	"time"
)

// With millions of events pending (a retry storm's), every sift of one heap
// misses the cache at each of its levels. So once the heap outgrows the cache
// (nearMax), only the events of the near future stay in it; the later ones wait
// unsorted in the buckets of a radix heap (Ahuja, Mehlhorn, Orlin and Tarjan
// 1990) on their time, appended in O(1), and move into the heap, a bucket at a
// time, when it runs dry. The heap still orders every event it pops by (time,
// insertion sequence), and every event in it comes before every event in a
// bucket, so events come out exactly as from one heap: ties included.
//
// Bucket j (1–63) holds the events whose time differs from base first at bit
// j−1 (bits.Len64 of at XOR base is j), and so lies after base: each bucket is
// a range of times, the lower buckets the earlier. The heap holds the events
// before base and those within the aligned 2^k of base (j ≤ k), every one
// earlier than any in a bucket. When the heap runs dry, base moves to the
// earliest event of the lowest bucket, whose events spread into the heap and
// the lower buckets: an event moves at most once per bucket below its own.
// A bucket is a list of chunks of chunkLen events, taken from and given back
// to one pool, so that the buckets hold what is pending, not each its peak.
type farBuckets struct {
	base   time.Duration
	narrow int // 63−k: 0 keeps every event in the heap (the zero Queue)
	n      int // events in the buckets
	full   uint64
	tried  int // the heap's size after a split that left it large: split again at twice that
	bucket [64][]*chunk
	free   []*chunk
}

// chunk is a piece of a bucket: events[:n] are in it.
type chunk struct {
	n      int
	events [chunkLen]Event
}

// chunkLen is the number of events in a chunk (6 KiB): a bucket's last chunk
// is partly empty, so a small one wastes little.
const chunkLen = 256

// nearMax is the heap's size (24 B an event) above which the queue keeps the
// later events in buckets: with fewer the heap stays in a 1 MiB cache (768 KiB). A
// variable for the tests, which make it small to exercise the buckets.
var nearMax = 1 << 15

// far reports whether an event at at belongs in a bucket, and which.
func (f *farBuckets) far(at time.Duration) (j int, ok bool) {
	if f.narrow == 0 || at < f.base {
		return 0, false
	}
	j = bits.Len64(uint64(at ^ f.base))
	return j, j > 63-f.narrow
}

func (f *farBuckets) add(j int, ev Event) {
	cs := f.bucket[j]
	if len(cs) == 0 || cs[len(cs)-1].n == chunkLen {
		cs = f.newChunk(j)
	}
	c := cs[len(cs)-1]
	c.events[c.n] = ev
	c.n++
	f.full |= 1 << j
	f.n++
}

// newChunk adds an empty chunk to bucket j, from the pool if it has one.
func (f *farBuckets) newChunk(j int) []*chunk {
	var c *chunk
	if n := len(f.free); n > 0 {
		c, f.free = f.free[n-1], f.free[:n-1]
	} else {
		c = new(chunk)
	}
	f.bucket[j] = append(f.bucket[j], c)
	return f.bucket[j]
}

// take empties bucket j, handing its chunks to each, then to the pool.
func (f *farBuckets) take(j int, each func(ev Event)) {
	for _, c := range f.bucket[j] {
		for _, ev := range c.events[:c.n] {
			each(ev)
		}
		c.n = 0
		f.free = append(f.free, c)
	}
	clear(f.bucket[j])
	f.bucket[j] = f.bucket[j][:0]
}

// clear empties the buckets, keeping their memory, and keeps every event in the heap.
func (f *farBuckets) clear() {
	for j := range f.bucket {
		f.take(j, func(Event) {})
	}
	f.base, f.narrow, f.n, f.full, f.tried = 0, 0, 0, 0, 0
}

// push adds ev to the heap, or to its bucket when it is far.
func (e *Queue) push(ev Event) {
	if j, far := e.far.far(ev.At); far {
		e.far.add(j, ev)
		if len(e.heap) == 0 {
			e.refill()
		}
		return
	}
	e.heap = append(e.heap, ev)
	e.up(len(e.heap) - 1)
	if n := len(e.heap); n > nearMax && n > e.far.tried {
		e.split()
	}
}

// refill moves the lowest bucket into the heap: base becomes its earliest
// event's time, and its events go to the heap (those within 2^k of base,
// the earliest among them) or to lower buckets. When few events are left in
// the buckets, it moves them all into the heap and keeps none out.
func (e *Queue) refill() {
	f := &e.far
	toHeap := func(ev Event) { e.heap = append(e.heap, ev) }
	if len(e.heap) == 0 && f.n <= nearMax/8 {
		for j := range f.bucket {
			f.take(j, toHeap)
		}
		f.clear()
		e.heapify()
		return
	}
	i := bits.TrailingZeros64(f.full)
	least := time.Duration(1<<63 - 1)
	for _, c := range f.bucket[i] {
		for _, ev := range c.events[:c.n] {
			least = min(least, ev.At)
		}
	}
	f.base, f.full = least, f.full&^(1<<i)
	near := len(e.heap)
	f.take(i, func(ev Event) {
		f.n--
		if j, far := f.far(ev.At); far {
			f.add(j, ev)
		} else {
			toHeap(ev)
		}
	})
	if near == 0 {
		e.heapify()
		return
	}
	for k := near; k < len(e.heap); k++ {
		e.up(k)
	}
}

// split keeps in the heap only the events within the largest 2^k of base that
// holds at most a quarter of nearMax of them, or the earliest (never widening
// it), and moves the later ones to the buckets. With no bucket in use, base is
// first set to now, and the width to the widest.
func (e *Queue) split() {
	f := &e.far
	if f.n == 0 { // a new base: every event in the heap is still near
		f.base, f.narrow = e.now, 0
	}
	var count [64]int
	for i := range e.heap {
		count[f.len(e.heap[i].At)]++
	}
	// The earliest event stays: it may be the top being handled in place.
	least := f.len(e.heap[0].At)
	k, kept := 0, count[0]
	for k < 63-f.narrow && (k < least || kept+count[k+1] <= nearMax/4) {
		k++
		kept += count[k]
	}
	if kept > len(e.heap)/2 {
		f.tried = 2 * len(e.heap)
	}
	f.narrow = 63 - k
	h := e.heap[:0]
	for _, ev := range e.heap {
		if j, far := f.far(ev.At); far {
			f.add(j, ev)
		} else {
			h = append(h, ev)
		}
	}
	clear(e.heap[len(h):])
	e.heap = h
	e.heapify()
}

// len is the bucket an event at at would be in if every bucket were in use: 0
// for at before base.
func (f *farBuckets) len(at time.Duration) int {
	if at < f.base {
		return 0
	}
	return bits.Len64(uint64(at ^ f.base))
}

func (e *Queue) heapify() {
	for i := (len(e.heap) - 2) / 4; i >= 0 && len(e.heap) > 1; i-- {
		e.down(i)
	}
}
