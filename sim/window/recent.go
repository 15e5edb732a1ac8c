package window

import (
	"math"
	"math/bits"
	"time"
)

// recentLog is a key's own cross-check log (Tracker.Allow) when every
// request costs the same, unit: then a sliding log of limit L admits a request
// exactly when fewer than most = L/unit of its admissions are in the window,
// that is when the most-th latest admission it made has left the window (or it
// has made fewer). So the log keeps its latest admissions in a ring and never
// drops one: each decision reads one entry and, when it admits, writes one. A
// ring smaller than most holds every admission still in the window (it grows
// before it would overwrite one), so fewer than most are in it: it admits.
type recentLog struct {
	off, size int32 // the ring: slab entries off … off+size−1, size a power of two
	made      int64 // admissions it has made; the latest is at (made−1) mod size
}

// recentAt is the entry of r for its admission number i (from 0).
func (p *Tracker) recentAt(r *recentLog, i int64) *time.Duration {
	return &p.logSlab.entries[r.off+int32(i&int64(r.size-1))]
}

// recentHolds reports whether r holds an admission still in the window at now.
func (p *Tracker) recentHolds(r *recentLog, now time.Duration) bool {
	return r.made > 0 && *p.recentAt(r, r.made-1)+p.window > now
}

// recentAllows reports whether r admits a request at now: fewer than most of
// its admissions are in the window (see recentLog).
func (p *Tracker) recentAllows(r *recentLog, now time.Duration) bool {
	return r.made < p.most || int64(r.size) < p.most || *p.recentAt(r, r.made-p.most)+p.window <= now
}

// giveUpRecent gives up the log of key window k, when it and k are both
// empty: the key's window is its log again.
func (p *Tracker) giveUpRecent(k *keyWindow) {
	r := &p.recent[k.log-1]
	p.logSlab.release(r.off, r.size)
	p.freeLog = append(p.freeLog, k.log-1)
	k.log = 0
}

// pushRecent records an admission at at in r, growing r first when it has
// no room (recentRoom).
func (p *Tracker) pushRecent(r *recentLog, at time.Duration) {
	if !p.recentRoom(r, at) {
		p.growRecent(r, 2*r.size)
	}
	p.recordRecent(r, at)
}

// recentRoom reports whether r can record an admission at at as it is: it is
// not full, or holds most, or the entry it would overwrite has left the window.
func (p *Tracker) recentRoom(r *recentLog, at time.Duration) bool {
	return r.made < int64(r.size) || int64(r.size) >= p.most || *p.recentAt(r, r.made)+p.window <= at
}

// recordRecent records an admission at at in r, which has room.
func (p *Tracker) recordRecent(r *recentLog, at time.Duration) {
	*p.recentAt(r, r.made) = at
	r.made++
}

// growRecent moves r's latest admissions to a ring of size entries. The
// slots of the admissions the old ring no longer held, which a larger ring
// can be asked about (made−most), read as long gone: by the time the old ring
// dropped them they had left the window (recentLog), whatever the memory held.
func (p *Tracker) growRecent(r *recentLog, size int32) {
	old := *r
	if old.size > 0 && size == 2*old.size && p.logSlab.doubleLast(old.off, old.size) {
		// Admission i is at i mod size: those with the old size's bit set move
		// to the new half.
		r.size = size
		for i := max(0, old.made-int64(old.size)); i < old.made; i++ {
			if i&int64(old.size) != 0 {
				*p.recentAt(r, i) = *p.recentAt(&old, i)
			}
		}
	} else {
		r.off, r.size = p.logSlab.alloc(size), size
		for i := max(0, old.made-int64(old.size)); i < old.made; i++ {
			*p.recentAt(r, i) = *p.recentAt(&old, i)
		}
		if old.size > 0 {
			p.logSlab.release(old.off, old.size)
		}
	}
	for i := max(0, r.made-int64(size)); i < r.made-int64(old.size); i++ {
		*p.recentAt(r, i) = longGone
	}
}

// longGone is a time any window has left behind.
const longGone = time.Duration(math.MinInt64 / 2)

// ownRecent gives key a log of its own, a recentLog holding its window as it is.
func (p *Tracker) ownRecent(key int32) *recentLog {
	i := takeLog(p, key, &p.recent) // before p.recent is read: it may grow it
	k, r := &p.keys[key], &p.recent[i]
	p.growRecent(r, max(4, int32(1)<<bits.Len32(uint32(k.n))))
	for j := range k.n {
		*p.recentAt(r, int64(j)) = p.slab.entry(k, j).at
	}
	r.made = int64(k.n)
	return r
}
