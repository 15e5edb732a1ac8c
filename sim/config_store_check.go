package sim

import (
	"fmt"
	"math"
)

var evictionEnum = enum[Eviction]{"Eviction", []string{
	EvictNone: "noeviction",
	EvictLRU:  "allkeys-lru",
}}

func (e Eviction) String() string { return evictionEnum.name(e) }

// EvictionNames lists the eviction policies' names, in order.
func EvictionNames() []string { return evictionEnum.list() }

// ParseEviction maps a name to its eviction policy; ok is false for an unknown name.
func ParseEviction(s string) (Eviction, bool) { return evictionEnum.parse(s) }

// checkStoreSystem reports what is wrong with a store's shards, capacity,
// queue, changes and memory.
func checkStoreSystem(ck *checker, path string, s Store) {
	if s.Shards < 0 || s.Shards > MaxShards {
		ck.add(path+".shards", "must be 1 to %d, got %d", MaxShards, s.Shards)
	}
	checkStoreCapacity(ck, path+".capacity", s.Capacity)
	if !serviceEnum.valid(s.Service) {
		ck.add(path+".service", "unknown distribution %v", s.Service)
	}
	if s.QueueLimit < 0 || s.QueueLimit > MaxStoreQueue {
		ck.add(path+".queue_limit", "must be 0 (unbounded) to %d, got %d", MaxStoreQueue, s.QueueLimit)
	}
	if s.MaxMemory < 0 {
		ck.add(path+".maxmemory", "must not be negative, got %d", s.MaxMemory)
	}
	if !evictionEnum.valid(s.Eviction) {
		ck.add(path+".eviction", "unknown policy %v", s.Eviction)
	}
	if len(s.Changes) > MaxChanges {
		ck.add(path+".changes", "at most %d changes, got %d", MaxChanges, len(s.Changes))
	}
	for i, ch := range s.Changes {
		p := fmt.Sprintf("%s.changes[%d]", path, i)
		if ch.At < 0 || (i > 0 && ch.At <= s.Changes[i-1].At) {
			ck.add(p+".at", "changes must be in time order, apart, from 0s (%v)", ch.At)
		}
		ck.atMostTime(p+".at", ch.At)
		checkStoreCapacity(ck, p+".capacity", ch.Capacity)
		if ch.Latency.Mean < 0 {
			ck.add(p+".latency.mean", "must not be negative, got %v", ch.Latency.Mean)
		}
		ck.atMostTime(p+".latency.mean", ch.Latency.Mean)
		if !serviceEnum.valid(ch.Latency.Kind) {
			ck.add(p+".latency.distribution", "unknown distribution %v", ch.Latency.Kind)
		}
	}
}

// checkStoreCapacity: 0 (unbounded, or unchanged) or a finite rate up to MaxStoreCapacity.
func checkStoreCapacity(ck *checker, field string, v float64) {
	if math.IsNaN(v) || v < 0 || v > MaxStoreCapacity {
		ck.add(field, "must be 0 to %g calls per second, got %v", float64(MaxStoreCapacity), v)
	}
}
