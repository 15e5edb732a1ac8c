package sim

import "time"

// storeMemory is what the store's shards hold of the shared limits' keys:
// every key a call writes (each shared limit counting the caller), its
// bytes by its limit's algorithm (keyBytes), until its TTL runs out (keyTTL)
// or, past a shard's MaxMemory, it is evicted (allkeys-lru: its limiter
// state starts afresh) or the write refused (noeviction: the call fails).
// A call writes as of its sending; the keys are in a list per shard and limit
// ordered by last write, which is also their order of expiry.
//
// A key lives on the shard of the call that created it; a key several clients
// share (global, or an ip several users share) keeps one state and is
// counted on that shard alone.
type storeMemory struct {
	f      *fleet
	limits []memLimit
	shards []memShard
}

// memLimit is one limit's keys in the store (none for a limit not shared).
type memLimit struct {
	shared          bool
	family          keyFamily
	window          time.Duration
	limit           int64
	last            []time.Duration // per key: its last write
	entries         []int64         // per key: a log's entries (at most the limit) as of its last write
	logCur, logPrev []int64         // per key: a log's writes in its last write's window and the one before
	logWin          []int64         // per key: its last write's window (time / window)
	bytes           []int64         // per key: its bytes, 0 when not held
	home            []uint16        // per key: its shard while held
	prev, next      []int32         // per key: its neighbours in its shard's list (-1: none)
	fresh           stateTable      // a never-seen key, to reset an evicted one
	freshAt         uint32          // the limit's epoch fresh was made in
}

// memShard is one shard's memory: per limit the head (newest) and tail
// (oldest) of its list of keys, and its figures.
type memShard struct {
	cfg        *Store // its store's: MaxMemory and Eviction
	head, tail []int32
	used, keys int64
	res        ShardResult
}

// keyFamily is how an algorithm keeps a key in Redis.
type keyFamily uint8

const (
	familyWindow  keyFamily = iota // a counter per window (fixed window): a string
	familySliding                  // the current and the previous window's counters: two strings
	familyLog                      // a sorted set, one entry per admission
	familyBucket                   // a hash of tokens and last refill (token, leaky bucket)
	familyTAT                      // a theoretical arrival time (GCRA): a string
)

// familyOf is how lane kind's limiter keeps a key.
func familyOf(kind LaneKind) keyFamily {
	switch kind {
	case LaneFixedWindow, LaneEnvoyRateLimit, LaneKong, LaneAWSAPIGateway, LaneAWSWAF, LaneCloudflare, LaneHAProxy, LaneAWSQuota:
		return familyWindow
	case LaneSlidingWindowCounter, LaneKongAdvanced:
		return familySliding
	case LaneSlidingLog:
		return familyLog
	case LaneGCRA:
		return familyTAT
	}
	return familyBucket
}

// keyBytes is a key's bytes with n entries (a log's; 1 for the others).
func keyBytes(f keyFamily, n int64) int64 {
	switch f {
	case familySliding:
		return 2 * BytesCounterKey
	case familyBucket:
		return BytesHashKey
	case familyLog:
		if n > LogListpackEntries {
			return BytesLogBig + BytesLogBigEntry*n
		}
		return BytesLogKey + BytesLogEntry*n
	}
	return BytesCounterKey
}

// keyTTL is when a key last written at last expires: a window's counter at
// the end of its window (windows from 0), the sliding counters at the end of
// the next, the others a window after the last write (a bucket refilled, a
// TAT passed, a log's entries all older than the window): each when its state
// is again a never-seen key's.
func keyTTL(f keyFamily, w, last time.Duration) time.Duration {
	switch f {
	case familyWindow:
		return (last/w + 1) * w
	case familySliding:
		return (last/w + 2) * w
	}
	return later(last, w)
}

// newStoreMemory is the memory of fleet f's store; nil when no limit calls it.
func newStoreMemory(f *fleet) *storeMemory {
	if !f.shared {
		return nil
	}
	m := &storeMemory{f: f}
	m.limits = make([]memLimit, len(f.limits))
	for i, lim := range f.lane.cfg.Limits {
		if lim.State != StateShared {
			continue
		}
		sl := f.limits[i].(*sharedLimit)
		p := f.lane.cfg.policy(f.lane.index, i)
		keys := sl.keys
		ml := &m.limits[i]
		*ml = memLimit{shared: true, family: familyOf(sl.rule.kind), window: p.Window, limit: p.Limit,
			last: make([]time.Duration, keys), entries: make([]int64, keys), bytes: make([]int64, keys),
			logCur: make([]int64, keys), logPrev: make([]int64, keys), logWin: make([]int64, keys),
			home: make([]uint16, keys), prev: make([]int32, keys), next: make([]int32, keys)}
	}
	m.shards = make([]memShard, f.shardCount())
	for s := range m.shards {
		m.shards[s].cfg = f.storeCfg(f.storeOfShard(s))
		m.shards[s].head = make([]int32, len(m.limits))
		m.shards[s].tail = make([]int32, len(m.limits))
		for i := range m.limits {
			m.shards[s].head[i], m.shards[s].tail[i] = -1, -1
		}
	}
	return m
}

// logWrite is what a write of key k at t makes of a log's entries: the writes
// in the window ending at t, estimated as a sliding window counter does
// (this window's, plus the last window's weighted by the part of it still in
// the window), at least 1, at most the limit (the log refuses past it); and
// the counts it leaves. A key not held starts with none.
func (ml *memLimit) logWrite(k int32, t time.Duration) (n, cur, prev, win int64) {
	win = int64(t / ml.window)
	if ml.bytes[k] > 0 {
		switch ml.logWin[k] {
		case win:
			cur, prev = ml.logCur[k], ml.logPrev[k]
		case win - 1:
			prev = ml.logCur[k]
		}
	}
	cur++
	into := float64(t%ml.window) / float64(ml.window)
	n = cur + int64(float64(prev)*(1-into))
	return min(max(n, 1), max(ml.limit, 1)), cur, prev, win
}
