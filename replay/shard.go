package replay

import (
	"errors"
	"fmt"
	"strings"
)

// MaxShards is the most shards a replay splits into (--shard i/n, n at most).
const MaxShards = 10000

// Shard is one share of a replay's keys (--shard i/n): the keys whose
// ShardHash leaves Index when divided by Count. The zero Shard is every key.
//
// The sharding rule keeps a replay exact. Every decision of a lane, every
// peak and every episode of a key depends only on that key's own lines (a
// key's state is its own, and it retires after its own idle time), so a shard
// that sees every line of the keys it owns computes their figures exactly as
// one pass does. A shard is chosen per key string, not per limit: the limits
// that give a line the same key string share one key table entry in a
// replay, so they are owned together. Each shard reads and parses every line
// (bad lines, late lines and the times are counted alike in every shard, and
// the merge takes them once, having checked that all shards agree) and
// replays only the (limit, key) pairs it owns; the others are passed over as
// a limit passes a line to another endpoint.
type Shard struct{ Index, Count int }

// ParseShard reads --shard i/n: 0 <= i < n <= MaxShards.
func ParseShard(s string) (Shard, error) {
	var sh Shard
	var rest string
	n, _ := fmt.Sscanf(s, "%d/%d%s", &sh.Index, &sh.Count, &rest)
	if n != 2 || sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count || fmt.Sprintf("%d/%d", sh.Index, sh.Count) != s {
		return Shard{}, fmt.Errorf("--shard %s: want i/n with 0 <= i < n, e.g. 0/4 (a Kubernetes Indexed Job's JOB_COMPLETION_INDEX as i)", oneLine(s))
	}
	if sh.Count > MaxShards {
		return Shard{}, fmt.Errorf("--shard %s: %d shards, more than %d", s, sh.Count, MaxShards)
	}
	return sh, nil
}

// String is the shard as --shard writes it; "" for every key.
func (sh Shard) String() string {
	if sh.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", sh.Index, sh.Count)
}

// owns reports whether the key string key is this shard's.
func (sh Shard) owns(key []byte) bool {
	return sh.Count <= 1 || ShardHash(key)%uint64(sh.Count) == uint64(sh.Index)
}

// ShardHash is the 64-bit FNV-1a hash of a key's bytes (the key as the top
// keys list it: its parts joined by a space), which picks its shard. It is
// stable: the same key is in the same shard on every machine and version.
func ShardHash(key []byte) uint64 {
	h := uint64(14695981039346656037) // FNV-1a 64 offset basis
	for _, c := range key {
		h ^= uint64(c)
		h *= 1099511628211 // FNV-1a 64 prime
	}
	return h
}

// CheckShardable refuses, naming each, the limits a sharded replay cannot
// split: a global key (every part "global") counts every line under one key,
// so all of its decisions depend on every line and one shard would do all of
// its work. Every other figure of a replay is per key or merges exactly (the
// peak distribution as an exact histogram, the top keys from every refused
// key), so nothing else is refused.
func CheckShardable(limits []Limit) error {
	var errs []error
	for _, l := range limits {
		global := len(l.Key) > 0
		for _, p := range l.Key {
			global = global && p.Kind == "global"
		}
		if global {
			errs = append(errs, fmt.Errorf("--shard: limit %s has key %s: one key counts every line, so its decisions cannot be split by key across shards (replay it without --shard, in a pass of its own)", l.Name, l.Key))
		}
	}
	return errors.Join(errs...)
}

// shardList names shards as i/n, at most ten of them.
func shardList(missing []int, n int) string {
	var out []string
	for i, m := range missing {
		if i == 10 {
			out = append(out, fmt.Sprintf("and %d more", len(missing)-10))
			break
		}
		out = append(out, fmt.Sprintf("%d/%d", m, n))
	}
	return strings.Join(out, " ")
}
