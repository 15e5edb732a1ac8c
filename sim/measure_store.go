package sim

import "time"

// ShardResult is what one shard of the store did (TopologyResult.Shards).
type ShardResult struct {
	// Store names the store the shard is of: "" for Topology.Store, else one
	// of Topology.Stores.
	Store string
	// Calls counts the calls sent to the shard, failed ones included (a racy
	// check's read and write count once: one call of two round trips).
	Calls int64
	// Refused counts calls refused at once: the store down (an outage or a
	// change), or QueueFull of them its queue full.
	Refused, QueueFull int64
	// TimedOut counts calls whose round trip, wait and service passed the
	// timeout: they fail when it fires (a hung connection).
	TimedOut int64
	// PeakQueue is the most calls waiting at once; MeanQueue the calls waiting
	// on average over the run (the sum of the waits over Duration); MeanWait
	// the mean wait of a call served.
	PeakQueue int
	MeanQueue float64
	MeanWait  float64 // seconds
	// Latency is the latency of the shard's calls served: round trips, wait
	// and service (a timed-out call counts its timeout).
	Latency Percentiles
	// KeysPeak and MemoryPeak are the most keys and bytes the shard held at
	// once (the limits' keys, by the figures of docs/scenarios.md); Evictions
	// counts keys forgotten under allkeys-lru, RefusedWrites the calls failed
	// because a write did not fit under noeviction (OOM), Expired the keys
	// that expired by their TTL.
	KeysPeak      int64
	MemoryPeak    int64
	Evictions     int64
	RefusedWrites int64
	Expired       int64
	// Series is the shard over time, a point per Result.Bucket from 0 to the
	// end of the lane's series, or on to the last call's bucket (health
	// probes call through the drain).
	Series []ShardPoint
}

// ShardPoint is one time bucket of a shard (ShardResult.Series): point i
// starts at i × Result.Bucket and counts the calls sent in it.
type ShardPoint struct {
	Start time.Duration
	// Calls counts the calls sent in the bucket; Refused those refused at once
	// (the store down, or QueueFull of them its queue full), TimedOut those
	// that timed out, RefusedWrites those whose write did not fit (OOM), as
	// ShardResult counts them over the run.
	Calls, Refused, QueueFull, TimedOut, RefusedWrites int64
	// MeanLatency and P99Latency are the latency of the bucket's calls served
	// or timed out (those ShardResult.Latency counts), P99 the nearest rank
	// to within 1%; zero when none was.
	MeanLatency, P99Latency time.Duration
	// Keys and Memory are the most keys and bytes the shard held after a
	// write of the bucket's calls (each write as of its sending); a bucket
	// without one holds what the shard's latest write before it left. Zero
	// without a memory model (no limit writes the store).
	Keys, Memory int64
}
