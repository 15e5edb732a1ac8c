package sim

import "time"

// write is a call of client c to shard s at t writing every shared limit's
// key of c: false when it does not fit (noeviction, or nothing left to evict).
// A health probe's call (c < 0) writes no client's key: the few probe keys
// are not counted in the memory.
func (m *storeMemory) write(s int, c int32, t time.Duration) bool {
	m.expire(s, t)
	if c < 0 {
		return true
	}
	sh := &m.shards[s]
	need := int64(0)
	for i := range m.limits {
		if k, ok := m.keyOf(i, c); ok {
			need += m.grow(i, k, s, t)
		}
	}
	if most := sh.cfg.MaxMemory; most > 0 && sh.used+need > most {
		if sh.cfg.Eviction == EvictNone {
			return false
		}
		m.touch(s, c, t)
		for sh.used+need > most {
			if !m.evictOne(s, c, t) {
				return false
			}
		}
	}
	for i := range m.limits {
		if k, ok := m.keyOf(i, c); ok {
			m.put(i, k, s, t)
		}
	}
	sh.res.KeysPeak = max(sh.res.KeysPeak, sh.keys)
	sh.res.MemoryPeak = max(sh.res.MemoryPeak, sh.used)
	return true
}

// keyOf is limit i's key of client c, if i is shared and counts c.
func (m *storeMemory) keyOf(i int, c int32) (int32, bool) {
	if !m.limits[i].shared || m.f.lane.pop.skips(i, c) {
		return 0, false
	}
	return m.f.lane.pop.keyOf[i][c], true
}

// grow is the bytes a write of limit i's key k at t adds on shard s (none
// to a key held on another shard: it grows there unchecked).
func (m *storeMemory) grow(i int, k int32, s int, t time.Duration) int64 {
	ml := &m.limits[i]
	if ml.bytes[k] > 0 && int(ml.home[k]) != s {
		return 0
	}
	n := int64(1)
	if ml.family == familyLog {
		n, _, _, _ = ml.logWrite(k, t)
	}
	return keyBytes(ml.family, n) - ml.bytes[k]
}

// put writes limit i's key k at t, created on shard s if not held.
func (m *storeMemory) put(i int, k int32, s int, t time.Duration) {
	ml := &m.limits[i]
	n := int64(1)
	if ml.family == familyLog {
		n, ml.logCur[k], ml.logPrev[k], ml.logWin[k] = ml.logWrite(k, t)
	}
	if ml.bytes[k] == 0 {
		ml.home[k] = uint16(s)
		m.shards[s].keys++
	} else {
		m.unlink(i, k)
	}
	sh := &m.shards[ml.home[k]]
	ml.entries[k] = n
	b := keyBytes(ml.family, n)
	sh.used += b - ml.bytes[k]
	ml.bytes[k], ml.last[k] = b, t
	m.pushFront(i, k)
}

// touch makes c's keys held on shard s the most recently used, at t.
func (m *storeMemory) touch(s int, c int32, t time.Duration) {
	for i := range m.limits {
		if k, ok := m.keyOf(i, c); ok && m.limits[i].bytes[k] > 0 && int(m.limits[i].home[k]) == s {
			m.unlink(i, k)
			m.limits[i].last[k] = t
			m.pushFront(i, k)
		}
	}
}

// evictOne forgets shard s's least recently used key that is not one of c's
// written at t; false if there is none.
func (m *storeMemory) evictOne(s int, c int32, t time.Duration) bool {
	sh := &m.shards[s]
	best, bestKey := -1, int32(-1)
	for i := range m.limits {
		k := sh.tail[i]
		if k < 0 || m.limits[i].last[k] == t && m.isCallers(i, k, c) {
			continue
		}
		if best < 0 || m.limits[i].last[k] < m.limits[best].last[bestKey] {
			best, bestKey = i, k
		}
	}
	if best < 0 {
		return false
	}
	m.drop(best, bestKey)
	sh.res.Evictions++
	m.reset(best, bestKey)
	return true
}

func (m *storeMemory) isCallers(i int, k, c int32) bool {
	ck, ok := m.keyOf(i, c)
	return ok && ck == k
}

// reset starts limit i's key k afresh in the store: a never-seen key's state.
func (m *storeMemory) reset(i int, k int32) {
	sl := m.f.limits[i].(*sharedLimit)
	ml := &m.limits[i]
	if ml.fresh == nil || ml.freshAt != sl.epoch {
		ml.fresh, ml.freshAt = sl.store.like(1), sl.epoch
	}
	sl.store.copyFrom(k, ml.fresh, 0)
}

// expire drops the keys of shard s whose TTL has run out by t.
func (m *storeMemory) expire(s int, t time.Duration) {
	sh := &m.shards[s]
	for i := range m.limits {
		ml := &m.limits[i]
		for k := sh.tail[i]; k >= 0 && keyTTL(ml.family, ml.window, ml.last[k]) <= t; k = sh.tail[i] {
			m.drop(i, k)
			sh.res.Expired++
		}
	}
}

// drop forgets limit i's key k from its shard.
func (m *storeMemory) drop(i int, k int32) {
	ml := &m.limits[i]
	sh := &m.shards[ml.home[k]]
	m.unlink(i, k)
	sh.used -= ml.bytes[k]
	sh.keys--
	ml.bytes[k], ml.entries[k] = 0, 0
}

func (m *storeMemory) pushFront(i int, k int32) {
	ml := &m.limits[i]
	sh := &m.shards[ml.home[k]]
	ml.prev[k], ml.next[k] = -1, sh.head[i]
	if sh.head[i] >= 0 {
		ml.prev[sh.head[i]] = k
	} else {
		sh.tail[i] = k
	}
	sh.head[i] = k
}

func (m *storeMemory) unlink(i int, k int32) {
	ml := &m.limits[i]
	sh := &m.shards[ml.home[k]]
	p, n := ml.prev[k], ml.next[k]
	if p >= 0 {
		ml.next[p] = n
	} else {
		sh.head[i] = n
	}
	if n >= 0 {
		ml.prev[n] = p
	} else {
		sh.tail[i] = p
	}
}

// account adds shard s's memory figures to res.
func (m *storeMemory) account(s int, res *ShardResult) {
	r := m.shards[s].res
	res.KeysPeak, res.MemoryPeak, res.Evictions, res.Expired = r.KeysPeak, r.MemoryPeak, r.Evictions, r.Expired
}
