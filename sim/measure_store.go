package sim

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
}
