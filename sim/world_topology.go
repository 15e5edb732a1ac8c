package sim

import "time"

// Topology is where a lane's limiter runs: Replicas servers behind a load
// balancer, each deciding the requests routed to it, and a Store that limits
// whose state is shared or synced keep their counts in. Every limit of the
// chain says where its state lives (Limit.State). A nil Config.Topology is
// one perfect limiter: every check atomic, instantaneous and always answered.
//
// Topology applies to the lanes that decide the limit chain: rate-limiter
// lanes and the server-side chain behind a client gate. A concurrency limiter
// (AIMD, Vegas, Gradient2) bounds the requests in flight to the backend, not a keyed rate,
// and runs as without a topology; the result says so (LaneResult.Topology is nil).
type Topology struct {
	// Replicas is the fleet size over time: Count replicas from each step's At
	// until the next step. The first step is at 0; one step is a fixed fleet,
	// more are an autoscaler. A replica that leaves takes its local state with
	// it; one that joins starts with none.
	Replicas []ReplicaStep
	// Routing is how the load balancer picks a replica for each attempt.
	Routing Routing
	// HashKey is the key RoutingHash hashes (sticky routing): every attempt of
	// a client with the same key goes to the same replica while the fleet size
	// stays the same (the hash is taken modulo the current count).
	HashKey KeyKind
	// Store holds the state of shared and synced limits (those whose
	// Limit.Store is "").
	Store Store
	// Stores are stores of their own for the shared limits that name one
	// (Limit.Store): a separate store for abuse limits, say. Each has its own
	// latency, timeout, capacity, queue, shards, memory, outages and changes;
	// the breaker, the refusal cache, leases, the atomic check, restarts and
	// partitions are Store's, for every store. At most MaxStores.
	Stores []NamedStore
	// Health, when set, has the load balancer probe every replica and take
	// the ones that fail out of the rotation (see HealthCheck); nil routes to
	// every replica whatever it answers.
	Health *HealthCheck
}

// NamedStore is a store of its own, named by the limits whose state it holds
// (Limit.Store). Of Store it reads Latency, Timeout, Outages (without Flush),
// Shards, Capacity, Service, QueueLimit, Changes, MaxMemory and Eviction.
type NamedStore struct {
	Name  string
	Store Store
}

// MaxStores bounds Topology.Stores.
const MaxStores = 8

// ReplicaStep sets the fleet to Count replicas from At on.
type ReplicaStep struct {
	At    time.Duration
	Count int
}

// Routing is how a load balancer spreads attempts over replicas.
type Routing uint8

const (
	// RoutingRoundRobin sends the n-th attempt of the lane to replica n mod count.
	RoutingRoundRobin Routing = iota
	// RoutingRandom picks a replica uniformly from the lane's own seeded stream.
	RoutingRandom
	// RoutingHash picks replica hash(key) mod count, the key being Topology.HashKey.
	RoutingHash
)

// Store is the shared store (a Redis, say) of shared and synced limits.
type Store struct {
	// Latency is the round-trip time of one call, drawn per call (the backend's
	// service-time distributions); the zero value is an instantaneous store.
	Latency Service
	// Racy makes a shared limit check read, then write: two round trips, the
	// decision taken on the state read and the state written back on an
	// admission, so decisions of other replicas between the read and the write
	// are lost (over-admission). The zero value is an atomic check (one script):
	// one round trip, decisions serialised at the store in the order calls
	// arrive (half the round trip after the attempt).
	Racy bool
	// Timeout is the most a decision waits for the store: a decision whose round
	// trips (together) exceed it is a store error, known Timeout after the
	// attempt, and changes nothing at the store. Zero waits for ever.
	Timeout time.Duration
	// Outages are the intervals [From, To) in which every store call fails at
	// once (connection refused).
	Outages []Outage
	// Breaker, when Failures > 0, is a circuit breaker on each replica for
	// each shard of the store (see Breaker).
	Breaker Breaker
	// RefusalCache keeps, on each replica, every key a shared limit refused
	// (with a Retry-After) refused locally until its Retry-After has passed,
	// without a store call: envoyproxy/ratelimit's local cache of over-limit
	// keys (LOCAL_CACHE_SIZE_IN_BYTES; src/limiter/base_limiter.go sets each
	// over-limit key with a TTL of the limit's unit, its window).
	RefusalCache bool
	// Lease, when positive, has each replica take up to Lease cost units of a
	// shared fixed window or token bucket limit (in the lanes running those)
	// from the store in one call, per key, and spend them locally with no
	// call until they run out; what is left expires at the end of the window
	// (aligned, [k·Window, (k+1)·Window)) it was taken in. The store is charged
	// what it grants when it grants it, so the fleet can hold up to replicas ×
	// Lease units it has not spent: its overshoot over one exact limiter.
	Lease int64
	// Restarts are the instants, in time order, at which the store restarts
	// empty (no persistence): every shared limit's state, and every synced
	// limit's global state, starts afresh; the limits forget what they counted.
	Restarts []time.Duration
	// Partitions cut some replicas off the store while the others still reach
	// it (see Partition).
	Partitions []Partition
	// Shards spreads the keys over this many shards (0 or 1: one), each with its
	// own Capacity, queue and MaxMemory. A client's keys all live on one shard,
	// as a Redis hash tag makes them: the shard is the FNV-1a hash of the
	// client's key of the first shared limit counting it, modulo Shards.
	Shards int
	// Capacity is each shard's calls per second (0: unbounded): one call at a
	// time, a service time of 1/Capacity (Service: constant or exponential with
	// that mean), the calls waiting in a FIFO queue in front. A call's latency is
	// its round trip plus its wait plus its service.
	Capacity float64
	Service  ServiceKind
	// QueueLimit is the most calls waiting at a shard (0: unbounded); a call
	// finding it full fails at once (refused).
	QueueLimit int
	// Changes alter latency, capacity and availability over time, in time order.
	Changes []StoreChange
	// MaxMemory is each shard's memory in bytes for the limits' keys (0:
	// unbounded), and Eviction what a write past it does.
	MaxMemory int64
	Eviction  Eviction
}

// Breaker is a circuit breaker on a replica's calls to one shard of the
// store, with the states and the half-open rule of sony/gobreaker v2
// (v2/gobreaker.go: beforeRequest, onSuccess, onFailure, currentState):
//
//   - closed: every decision calls the store; once Failures of its calls
//     have failed within Window (the last Failures failures less than Window
//     apart), it opens (gobreaker's ReadyToTrip, counted over a sliding
//     window here where gobreaker clears its counts every Interval);
//   - open: for Cooldown (gobreaker's Timeout) no call is made: each decision
//     is taken at once by the limits' fail modes (gobreaker's ErrOpenState);
//   - half-open, from the first decision at or after the cooldown's end: up
//     to Probes calls are made (gobreaker's MaxRequests), the decisions past
//     them taken by the fail modes (ErrTooManyRequests); Probes successes
//     close it, one failure opens it again.
//
// As in gobreaker, an outcome counts only in the state (the generation) its
// call was sent in: a timeout that comes back after the breaker opened
// changes nothing. A failure is known when the replica knows it: at once for
// a refused call, Timeout after it for one that timed out.
type Breaker struct {
	Failures         int
	Window, Cooldown time.Duration
	Probes           int
}

// Outage is an interval [From, To) of virtual time in which the store is down.
// Flush makes it a restart too: the store comes back empty (its state is
// emptied at From).
type Outage struct {
	From, To time.Duration
	Flush    bool
}

// StateKind is where a limit's state lives in a topology.
type StateKind uint8

const (
	// StateLocal keeps a state per replica: each replica counts alone, so a
	// fleet of n replicas admits up to n× the limit (see Limit.LocalLimit).
	StateLocal StateKind = iota
	// StateShared keeps one state in the store: every decision is a store call.
	StateShared
	// StateSynced counts locally and syncs with the store every SyncInterval: a
	// replica pushes its admissions since the last sync (the store's state is the
	// exact limiter charged with every replica's pushed admissions, in time
	// order) and pulls the store's state; between syncs it decides on the state
	// last pulled plus its own admissions since.
	StateSynced
)

// LocalLimit is the per-replica policy of a limit each replica counts alone:
// a local limit, or the fallback of a shared limit failing locally (FailLocal).
type LocalLimit uint8

const (
	// LocalFull gives every replica the whole policy.
	LocalFull LocalLimit = iota
	// LocalDivided gives replica i of n the share DividedShare(limit, n, i) of
	// the limit, and as much of the burst: shares that differ by at most one and
	// sum to the policy, so the fleet never admits more than it. With fewer
	// cost units per window than replicas, some replicas have a share of
	// nothing and refuse every attempt (a key routed to one replica is then
	// limited to 0 or 1 per window). When the count changes the policy is
	// divided anew and every replica starts afresh on its new share, but for
	// one window it must also still fit its old share on its old state (a
	// replica that joins refuses for a window): no window across the step
	// admits more than the policy.
	LocalDivided
)

// FailMode is what a limit decides when its store call fails (outage or timeout).
type FailMode uint8

const (
	// FailOpen admits: the limit does not count the request.
	FailOpen FailMode = iota
	// FailClosed refuses (429, no Retry-After).
	FailClosed
	// FailLocal decides on the replica's own fallback limit (Limit.Fallback),
	// counted per replica from the first store error on: the whole fallback
	// policy on every replica, or with Limit.LocalLimit LocalDivided its share
	// over the current replica count, divided anew at each autoscaler step.
	FailLocal
)
