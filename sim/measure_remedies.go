package sim

import "time"

// BreakerCounts is what the circuit breaker of one replica on one shard of
// the store did (TopologyResult.Breakers).
type BreakerCounts struct {
	Replica, Shard int
	// Opens counts the times it opened: from closed, or again from half-open.
	Opens int64
	// Saved counts the store round trips it did not make: one per decision
	// (two for a racy check) taken by the fail modes while it was open, or
	// half-open with its probes sent.
	Saved int64
	// OpenTime is the time it was open (each opening's cooldown, cut at the
	// run's end).
	OpenTime time.Duration
}

// Remedies is what the store's remedies did in a lane (TopologyResult.Remedies):
// the circuit breakers, the refusal cache and token leases.
type Remedies struct {
	// Breakers are the breakers that opened at least once, by replica then
	// shard; BreakerOpens, BreakerSaved and BreakerOpenTime their sums.
	Breakers        []BreakerCounts
	BreakerOpens    int64
	BreakerSaved    int64
	BreakerOpenTime time.Duration
	// CacheHits counts the decisions a replica's refusal cache refused without
	// calling the store; CacheSaved the round trips they did not make.
	CacheHits, CacheSaved int64
	// CacheDiffers counts the cache's refusals the store would have admitted
	// (its state peeked at the attempt): what the cache cost.
	CacheDiffers int64
	// LeaseLocal counts the decisions taken on leased units alone, no call
	// made; LeaseTaken the units the store granted in leases, LeaseExpired
	// those of them never spent (expired, or held at the end).
	LeaseLocal, LeaseTaken, LeaseExpired int64
}
