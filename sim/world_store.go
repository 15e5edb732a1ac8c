package sim

import "time"

// StoreChange sets, from At on, the store's state on every shard: its
// capacity when Capacity > 0, its round-trip latency when Latency.Mean > 0,
// and whether it is down (every call then fails at once, connection refused,
// until a later change with Down false). Zero fields keep what was.
type StoreChange struct {
	At       time.Duration
	Capacity float64
	Latency  Service
	Down     bool
}

// Real reports whether s is simulated as a real store: with several shards,
// a capacity, a memory or changes. A store without any of these answers in
// its round trips alone, unbounded, and its results have no shards.
func (s Store) Real() bool {
	return s.Shards > 1 || s.Capacity > 0 || s.MaxMemory > 0 || len(s.Changes) > 0
}

// Eviction is what a shard of the store does when a write would take it past
// its MaxMemory.
type Eviction uint8

const (
	// EvictNone refuses the write (Redis's noeviction): the call fails, a store
	// error each limit decides by its fail mode.
	EvictNone Eviction = iota
	// EvictLRU forgets the shard's least recently used keys until the write
	// fits (Redis's allkeys-lru, exact rather than sampled): a forgotten key's
	// limiter state starts afresh, so the limit under-counts.
	EvictLRU
)

// Store memory figures: the bytes one key holds in a Redis 7.0 (jemalloc, 64
// bit), MEMORY USAGE of a key named like "rl:{user:42}:tb" with its TTL, as
// measured (docs/scenarios.md, "Store memory").
const (
	// BytesCounterKey is a string key holding an integer or a timestamp: a
	// fixed-window counter, a GCRA's theoretical arrival time.
	BytesCounterKey = 72
	// BytesHashKey is a hash of two fields (tokens and last refill): a token
	// or leaky bucket.
	BytesHashKey = 120
	// BytesLogKey and BytesLogEntry are a sorted set in a listpack: the key,
	// and each entry (one per admitted request) up to LogListpackEntries; past
	// that Redis converts it to a skip list, BytesLogBig plus BytesLogBigEntry
	// an entry.
	BytesLogKey        = 88
	BytesLogEntry      = 32
	LogListpackEntries = 128
	BytesLogBig        = 3000
	BytesLogBigEntry   = 115
)

const (
	// MaxShards bounds a store's shards: each keeps two latency histograms
	// (the run's and its series bucket's) of about 58 KB each per lane.
	MaxShards = 64
	// MaxStoreCapacity bounds a shard's calls per second (a service time of 1ns).
	MaxStoreCapacity = 1e9
	// MaxStoreQueue bounds a shard's queue limit.
	MaxStoreQueue = 1_000_000
)
