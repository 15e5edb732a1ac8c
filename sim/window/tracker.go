package window

import (
	"math"
	"math/bits"
	"slices"
	"time"
)

// Tracker finds, exactly, the most cost admitted for one key in any window of
// length window (over every start time), and how long each key's trailing window
// held more than limit. Admissions must be added in non-decreasing time.
//
// It is also the lane's cross-check (Allow): an exact sliding log of the same
// limit, fed every decision. Most of the time a key's log holds the admissions
// its window holds, so the two share one window; the log gets a window of its
// own only once they part (the log admits what the lane refused or admitted
// later, or the reverse), until both are empty again. A lane calls Allow on
// each decision before it adds what it admitted: an Add of the admission the
// log has just allowed (same key, time and cost) keeps them sharing (Verdict
// does both in one call). Memory per key is one 64-byte keyWindow and the
// admissions inside its window, 16 B more for a key that has held more than
// limit (a timed tracker), and while its log has parted, the log: when every
// request costs the same a recentLog (16 B and 8 B per admission kept), else a
// keyWindow of its own (64 B and its admissions); adding allocates nothing once
// the slabs have grown to the most admissions held at once.
type Tracker struct {
	window  time.Duration
	limit   int64
	timed   bool      // it times the windows over the limit (spans)
	checked bool      // it is also a cross-check (Allow): an add the log did not admit parts them
	off     FastPaths // the fast paths it does not take (tests)
	keys    []keyWindow
	spans   []overSpan          // of the keys that have held more than limit, by keyWindow.span
	slab    admissionSlab       // the keys' windows' rings, and keyWindow logs'
	logSlab slab[time.Duration] // the rings of recentLogs: their admissions' times (each costs the unit)
	best    Peak
	bestID  int32
	// earlier is the worst window before the last rule push that started the
	// keys afresh (Restart), with its limit; earlierID its key, or -1.
	earlier   Peak
	earlierID int32

	logs    []keyWindow // the cross-check's own windows, by keyWindow.log
	freeLog []int32     // indexes of logs (or recent) no key holds
	// unit, when not 0, is the cost of every request: a key's own log is then
	// a recentLog (in recent, by keyWindow.log), which admits while fewer than
	// most = limit/unit of its admissions are in the window.
	unit, most int64
	cost       int64 // the cost of every request, or 0: unit, while the limit is at least this
	recent     []recentLog
	// pending is the admission the log made at the last Allow (allowed), which
	// the lane has not added yet: the log is its key's window and pending.
	pending    admission
	pendingKey int32 // 1 + the key, or 0 when none is pending
}

// overSpan is how long one key's window held more than the limit, up to last.
type overSpan struct {
	over time.Duration
	last time.Duration
}

// pass moves s to t, counting the time since its last move as over the
// limit when over is true.
func (s *overSpan) pass(over bool, t time.Duration) {
	if over {
		s.over += t - s.last
	}
	s.last = t
}

// admission is cost admitted at at.
type admission struct {
	at   time.Duration
	cost int64
}

// keyWindow is one key's admissions in (t−window, t], oldest first: up to two
// here (first), more in a ring of the slab whose size is a power of two, so
// that wrapping is a mask, not a division. With a ring, first[0] is a copy of
// its oldest entry, so finding that nothing expired reads no ring. It is 64
// bytes, one cache line: most keys of a lane hold at most two admissions at
// once, and an event on a key touches this line alone.
type keyWindow struct {
	first     [2]admission // the admissions without a ring; with one, its oldest
	sum       int64
	off, size int32 // the ring: slab entries off … off+size−1; size 0 is none
	head, n   int32
	span      int32 // 1 + the key's overSpan, or 0 while it never held more than limit
	log       int32 // 1 + the key's own cross-check window, or 0 when it shares this one
}

// inline is how many admissions a keyWindow holds without a ring.
const inline = int32(len(keyWindow{}.first))

// slab holds the rings of every key of a tracker in one slice. A ring whose
// key's window empties goes back to a free list of its size, for the next key
// that needs one: a million keys with an admission each cost 16 B each, and no
// ring is allocated on its own.
type slab[T any] struct {
	entries []T
	free    [32][]int32 // log2 of a ring's size → offsets of free rings of that size
}

// admissionSlab is the slab of the keys' windows (and keyWindow logs).
type admissionSlab struct{ slab[admission] }

func (s *slab[T]) alloc(size int32) int32 {
	class := bits.TrailingZeros32(uint32(size))
	if f := s.free[class]; len(f) > 0 {
		s.free[class] = f[:len(f)-1]
		return f[len(f)-1]
	}
	off := len(s.entries)
	s.add(size)
	return int32(off)
}

// add adds size entries at the slab's end.
func (s *slab[T]) add(size int32) {
	off := len(s.entries)
	if off+int(size) > math.MaxInt32 {
		panic("window: Tracker: more than 2^31 admissions in one window")
	}
	if cap(s.entries)-off < int(size) {
		// Doubling, where append would grow a large slice by a quarter: less copying.
		s.entries = slices.Grow(s.entries, max(int(size), off))
	}
	s.entries = s.entries[:off+int(size)]
}

// doubleLast makes the ring of size entries at off twice as large where it
// is, when it is the slab's last, and reports whether it did: a key's ring
// that keeps growing (the one global key's, say) leaves no outgrown rings
// behind and is not copied.
func (s *slab[T]) doubleLast(off, size int32) bool {
	if int(off)+int(size) != len(s.entries) {
		return false
	}
	s.add(size)
	return true
}

func (s *slab[T]) release(off, size int32) {
	class := bits.TrailingZeros32(uint32(size))
	s.free[class] = append(s.free[class], off)
}

// entry is k's admission j (0 is the oldest).
func (s *admissionSlab) entry(k *keyWindow, j int32) admission {
	if k.size == 0 {
		return k.first[j]
	}
	return *s.at(k, j)
}

// at is entry j (0 is the oldest) of k's ring.
func (s *admissionSlab) at(k *keyWindow, j int32) *admission {
	return &s.entries[k.off+(k.head+j)&(k.size-1)]
}

// NewTracker is a timed tracker of keys keys (ids 0 … keys−1), each counted
// in a window of length window against limit: it finds the most admitted in
// any window (Worst) and the time each key held more than limit (OverLimit).
func NewTracker(window time.Duration, limit int64, keys int) Tracker {
	return Tracker{window: window, limit: limit, timed: true, keys: ownLines[keyWindow](keys), bestID: -1, earlierID: -1}
}

// NewChecked is a timed tracker that is also the lane's cross-check:
// Add is fed the lane's admissions, Allow (or Verdict) every decision. cost is
// the cost of every request, or 0 when costs differ; while the limit is at
// least cost, it is the tracker's unit (Unit). off turns fast paths off, for
// tests; its zero value takes them all.
func NewChecked(window time.Duration, limit int64, keys int, cost int64, off FastPaths) *Tracker {
	p := NewTracker(window, limit, keys)
	p.checked, p.cost, p.off = true, max(cost, 0), off
	p.setUnit()
	return &p
}

// setUnit makes cost the unit when every request costs it and the limit
// admits one (unit and most: see Tracker), else none.
func (p *Tracker) setUnit() {
	p.unit, p.most = 0, 0
	if p.cost > 0 && p.cost <= p.limit && !p.off.RecentOff {
		p.unit, p.most = p.cost, p.limit/p.cost
	}
}

// NewUntimed is a tracker that keeps no time over the limit (OverLimit
// is not to be called): for Allow, which never holds more than limit, and for
// peaks whose time over the limit nobody reads.
func NewUntimed(window time.Duration, limit int64, keys int) Tracker {
	return Tracker{window: window, limit: limit, keys: ownLines[keyWindow](keys), bestID: -1, earlierID: -1}
}

// Add counts an admission of cost for key at at, no earlier than the
// tracker's latest. On a checked tracker, an admission the log did not just
// allow (the last Allow, same key, time and cost) parts the key's log from its
// window.
//
// On an unchecked tracker, the common case is one loop over the key's ring
// whose state stays in registers, with no further call: the key has a ring
// that, once what left the window by at is dropped, still holds more than fit
// in its keyWindow and has room for one more, and it is not timed over the
// limit, before or by this admission. Otherwise Add takes the general path.
func (p *Tracker) Add(key int32, at time.Duration, cost int64) {
	k := &p.keys[key]
	if !p.ringAdds(k) {
		p.add(key, at, cost)
		return
	}
	ring, mask := p.slab.entries[k.off:k.off+k.size], k.size-1
	head, n, sum := k.head, k.n, k.sum
	for n > 0 && ring[head].at+p.window <= at {
		sum -= ring[head].cost
		head = (head + 1) & mask
		n--
	}
	if !p.keepsRing(k, n, sum+cost) {
		p.add(key, at, cost) // the ring goes back to the slab, or grows; or a span starts
		return
	}
	ring[(head+n)&mask] = admission{at, cost}
	k.head, k.n, k.sum = head, n+1, sum+cost
	k.first[0] = ring[head]
	p.noteBest(k, key)
}

// AddRun is Add(key, t, cost) for each t of at, in order: the common case
// of an unchecked tracker in one loop over all of them whose state stays in
// registers (addRunInRing), each other one by the general path.
func (p *Tracker) AddRun(key int32, at []time.Duration, cost int64) {
	for i := 0; i < len(at); {
		if n := p.addRunInRing(key, at[i:], cost); n > 0 {
			i += n
			continue
		}
		p.add(key, at[i], cost)
		i++
	}
}

// addRunInRing adds at[0], at[1], … to key's window while each is Add's
// common case (see Add), and returns how many it added; at the first that is
// not, it stops, having changed nothing for it.
func (p *Tracker) addRunInRing(key int32, at []time.Duration, cost int64) int {
	k := &p.keys[key]
	if !p.ringAdds(k) {
		return 0
	}
	ring, mask := p.slab.entries[k.off:k.off+k.size], k.size-1
	head, n, sum := k.head, k.n, k.sum
	done := 0
	for _, t := range at {
		h, m, s := head, n, sum
		for m > 0 && ring[h].at+p.window <= t {
			s -= ring[h].cost
			h = (h + 1) & mask
			m--
		}
		if !p.keepsRing(k, m, s+cost) {
			break // the general path: the ring goes back to the slab, or grows; or a span starts
		}
		ring[(h+m)&mask] = admission{t, cost}
		head, n, sum = h, m+1, s+cost
		if sum > p.best.Count {
			oldest := ring[head].at
			p.best, p.bestID = Peak{Count: sum, Start: oldest, End: oldest + p.window, Limit: p.limit}, key
		}
		done++
	}
	k.head, k.n, k.sum = head, n, sum
	k.first[0] = ring[head]
	return done
}

// ringAdds reports whether an Add to key's window k may take the common
// case: an unchecked tracker, nothing pending, a ring, no time over the limit.
func (p *Tracker) ringAdds(k *keyWindow) bool {
	return !p.checked && p.pendingKey == 0 && k.size > 0 && k.span == 0 && !p.off.InlineAddOff
}

// keepsRing reports whether k's ring, holding n admissions once what left the
// window is dropped, keeps them and one more to a sum of sum, as the general
// path would: more than fit in k, room in the ring, no span to start.
func (p *Tracker) keepsRing(k *keyWindow, n int32, sum int64) bool {
	return n > inline && n < k.size && !(p.timed && sum > p.limit)
}

// add is Add on the general path.
func (p *Tracker) add(key int32, at time.Duration, cost int64) {
	logged := false // the log admitted this very admission: it still shares the window
	if p.pendingKey != 0 {
		if logged = p.pendingKey == key+1 && p.pending == (admission{at, cost}); logged {
			p.pendingKey = 0
		} else {
			p.part()
		}
	}
	k := &p.keys[key]
	p.expire(k, at)
	if p.checked && !logged && k.log == 0 {
		p.ownLog(key) // the log did not admit it: it keeps the window as it was
	}
	p.addExpired(k, key, at, cost)
}

// addExpired is Add once the pending admission is dealt with and k, key's
// window, has dropped what left it by at.
func (p *Tracker) addExpired(k *keyWindow, key int32, at time.Duration, cost int64) {
	p.advance(k, at)
	p.push(k, admission{at, cost})
	if k.sum > p.limit && k.span == 0 && p.timed {
		p.spans = append(p.spans, overSpan{last: at})
		k.span = int32(len(p.spans))
	}
	p.noteBest(k, key)
}

// noteBest makes k, key's window, the best if it holds more than any before.
func (p *Tracker) noteBest(k *keyWindow, key int32) {
	if k.sum > p.best.Count {
		oldest := k.first[0].at
		p.best = Peak{Count: k.sum, Start: oldest, End: oldest + p.window, Limit: p.limit}
		p.bestID = key
	}
}

// expire drops k's admissions that have left the window (at+window ≤ now),
// timing the key's window over the limit if it is a key's own (not a log's).
// Most calls find none to drop: that test is inlined, the dropping is not.
func (p *Tracker) expire(k *keyWindow, now time.Duration) {
	if k.n > 0 && k.first[0].at+p.window <= now {
		p.drop(k, now)
	}
}

// drop is expire once k's oldest admission has left the window. A ring left
// with no more than fit in k goes back to the slab.
func (p *Tracker) drop(k *keyWindow, now time.Duration) {
	p.dropExpired(k, now)
	if k.size > 0 && k.n <= inline {
		for j := range k.n {
			k.first[j] = *p.slab.at(k, j)
		}
		p.slab.release(k.off, k.size)
		k.off, k.size, k.head = 0, 0, 0
	}
}

// dropExpired drops k's admissions that have left the window by now, keeping
// its ring as it is.
func (p *Tracker) dropExpired(k *keyWindow, now time.Duration) {
	span := p.spanOf(k)
	for k.n > 0 {
		gone := k.first[0].at + p.window
		if gone > now {
			break
		}
		p.uncount(k, span, gone)
		p.nextOldest(k)
	}
}

// spanOf is k's time over the limit, or nil while the key never held more than
// limit, and for a log.
func (p *Tracker) spanOf(k *keyWindow) *overSpan {
	if k.span == 0 {
		return nil
	}
	return &p.spans[k.span-1]
}

// uncount takes k's oldest admission, which left the window at gone, out of
// its sum and count, timing span: the key's time over the limit (nil for a
// log, and for a key never over it). nextOldest then drops it. Two parts,
// each inlined.
func (p *Tracker) uncount(k *keyWindow, span *overSpan, gone time.Duration) {
	if span != nil {
		span.pass(k.sum > p.limit, gone)
	}
	k.sum -= k.first[0].cost
	k.n--
}

// nextOldest makes k's next admission its oldest (after uncount).
func (p *Tracker) nextOldest(k *keyWindow) {
	next := &k.first[1]
	if k.size > 0 {
		k.head = (k.head + 1) & (k.size - 1)
		next = p.slab.at(k, 0) // the ring's oldest now (when it is empty, a stale entry nothing reads)
	}
	k.first[0] = *next
}

// advance accounts the time up to t at k's current sum, if the key has held
// more than limit before (until then, nothing is over the limit to account).
func (p *Tracker) advance(k *keyWindow, t time.Duration) {
	if k.span == 0 {
		return
	}
	p.spans[k.span-1].pass(k.sum > p.limit, t)
}

func (p *Tracker) push(k *keyWindow, a admission) {
	if !k.hasRoom() {
		p.grow(k)
	}
	p.pushInPlace(k, a)
}

// hasRoom reports whether k can take one more admission without a larger ring.
func (k *keyWindow) hasRoom() bool {
	return k.n < k.size || k.size == 0 && k.n < inline
}

// pushInPlace adds a to k, which has room.
func (p *Tracker) pushInPlace(k *keyWindow, a admission) {
	if k.size == 0 {
		k.first[k.n] = a
	} else {
		*p.slab.at(k, k.n) = a
	}
	k.n++
	k.sum += a.cost
}

// grow moves k's ring to one twice its size.
func (p *Tracker) grow(k *keyWindow) {
	if k.size > 0 && p.slab.doubleLast(k.off, k.size) {
		// The ring is full: its admissions from its start up to its head come,
		// in order, after the others, so they move to the new half.
		copy(p.slab.entries[k.off+k.size:k.off+k.size+k.head], p.slab.entries[k.off:k.off+k.head])
		k.size *= 2
		return
	}
	size := max(2*inline, 2*k.size)
	off := p.slab.alloc(size)
	for j := range k.n {
		p.slab.entries[off+j] = p.slab.entry(k, j)
	}
	if k.size > 0 {
		p.slab.release(k.off, k.size)
	}
	k.off, k.size, k.head = off, size, 0
}

// OverLimit is the longest total time one key's window held more than the limit,
// counting the admissions still in the window until they expire. It does not
// change the tracker.
func (p *Tracker) OverLimit() time.Duration {
	var longest time.Duration
	for i := range p.keys {
		k := &p.keys[i]
		if k.span == 0 {
			continue // never over the limit
		}
		over, last := p.spans[k.span-1].over, p.spans[k.span-1].last
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

// Unit is the cost of every request when the log counts in units (a parted
// log is then a recentLog, and CheckRun checks runs in one loop), or 0.
func (p *Tracker) Unit() int64 { return p.unit }

// Checked reports whether the tracker is also a cross-check: an Add the log
// did not allow parts the key's log from its window.
func (p *Tracker) Checked() bool { return p.checked }

// StopChecking makes a checked tracker count admissions only, for a lane that
// takes another's cross-check verdicts (whose log is this one's: SameCheck):
// no Add parts a log from then on. Allow is not to be called after it.
func (p *Tracker) StopChecking() { p.checked = false }

// Held is how many admissions key's window holds (as of its latest expiry).
// Reading it touches the key's window, one cache line: sim reads it to warm
// that line ahead of an event on the key.
func (p *Tracker) Held(key int32) int32 { return p.keys[key].n }

// BestKey is the key whose window held the most since the last Restart (the
// one Worst names when no earlier window was further over), or -1 for none.
func (p *Tracker) BestKey() int32 { return p.bestID }

// PartedLogs is how many logs of each kind the tracker has given keys whose
// log parted from their window, given up or not: recentLogs and keyWindow
// logs.
func (p *Tracker) PartedLogs() (recent, keyWindows int) { return len(p.recent), len(p.logs) }
