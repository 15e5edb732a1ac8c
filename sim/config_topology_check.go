package sim

import (
	"fmt"
	"time"
)

var routingEnum = enum[Routing]{"Routing", []string{
	RoutingRoundRobin: "round_robin",
	RoutingRandom:     "random",
	RoutingHash:       "hash",
}}

var stateEnum = enum[StateKind]{"StateKind", []string{
	StateLocal:  "local",
	StateShared: "shared",
	StateSynced: "synced",
}}

var localLimitEnum = enum[LocalLimit]{"LocalLimit", []string{
	LocalFull:    "full",
	LocalDivided: "divided",
}}

var failModeEnum = enum[FailMode]{"FailMode", []string{
	FailOpen:   "open",
	FailClosed: "closed",
	FailLocal:  "local",
}}

func (r Routing) String() string    { return routingEnum.name(r) }
func (s StateKind) String() string  { return stateEnum.name(s) }
func (l LocalLimit) String() string { return localLimitEnum.name(l) }
func (m FailMode) String() string   { return failModeEnum.name(m) }

// RoutingNames, StateNames, LocalLimitNames and FailModeNames list the valid
// names of a topology's settings, in order, for parsers and error messages.
func RoutingNames() []string    { return routingEnum.list() }
func StateNames() []string      { return stateEnum.list() }
func LocalLimitNames() []string { return localLimitEnum.list() }
func FailModeNames() []string   { return failModeEnum.list() }

// ParseRouting, ParseState, ParseLocalLimit and ParseFailMode map a name to its
// value; ok is false for an unknown name.
func ParseRouting(s string) (Routing, bool)       { return routingEnum.parse(s) }
func ParseState(s string) (StateKind, bool)       { return stateEnum.parse(s) }
func ParseLocalLimit(s string) (LocalLimit, bool) { return localLimitEnum.parse(s) }
func ParseFailMode(s string) (FailMode, bool)     { return failModeEnum.parse(s) }

const (
	// MaxReplicas bounds a topology's replicas at any time.
	MaxReplicas = 1000
	// MaxReplicaStates bounds the per-replica states of one limit, replicas ×
	// keys, when there are several replicas: each costs about 100 bytes per
	// lane (its state and its window of admissions for the per-replica peak).
	MaxReplicaStates = 1_000_000
	// MinSyncInterval is the shortest sync interval of a synced limit.
	MinSyncInterval = time.Millisecond
	// MaxBreakerCalls bounds a breaker's Failures and Probes (a replica keeps
	// the times of its last Failures failures).
	MaxBreakerCalls = 1000
	// MaxLease bounds Store.Lease.
	MaxLease = 1 << 40
	// maxPlacedLimits is the longest chain a topology places (a racy check
	// marks the limits to write back in one word).
	maxPlacedLimits = 64
)

// checkTopology reports what is wrong with c's topology and its limits' placements.
func checkTopology(ck *checker, c Config) {
	t := c.Topology
	if t == nil {
		return
	}
	if len(t.Replicas) == 0 {
		ck.add("topology.replicas", "at least one replica count is needed")
	}
	if len(t.Replicas) > MaxChanges+1 {
		ck.add("topology.replicas", "the first count and at most %d autoscaler steps, got %d", MaxChanges, len(t.Replicas)-1)
	}
	for i, s := range t.Replicas {
		p := fmt.Sprintf("topology.replicas[%d]", i)
		if i == 0 && s.At != 0 {
			ck.add(p+".at", "the first step must be at 0s, got %v", s.At)
		}
		if i > 0 && s.At <= t.Replicas[i-1].At {
			ck.add(p+".at", "steps must be in time order (%v is not after %v)", s.At, t.Replicas[i-1].At)
		}
		ck.atMostTime(p+".at", s.At)
		if s.Count < 1 || s.Count > MaxReplicas {
			ck.add(p+".count", "must be 1 to %d, got %d", MaxReplicas, s.Count)
		}
	}
	if !routingEnum.valid(t.Routing) {
		ck.add("topology.routing", "unknown routing %v", t.Routing)
	}
	if !keyEnum.valid(t.HashKey) {
		ck.add("topology.hash_key", "unknown key %v", t.HashKey)
	}
	checkStore(ck, "topology.store", t.Store)
	checkRemedies(ck, t.Store, c.Limits)
	most := 0
	for _, s := range t.Replicas {
		most = max(most, s.Count)
	}
	checkLoss(ck, "topology.store", t.Store, most, c.Limits)
	checkHealth(ck, "topology.health", t.WithHealthDefaults().Health)
	if len(c.Limits) > maxPlacedLimits {
		ck.add("limits", "a topology places at most %d limits, got %d", maxPlacedLimits, len(c.Limits))
	}
	for i, l := range c.Limits {
		checkPlacement(ck, fmt.Sprintf("limits[%d]", i), l)
	}
	checkNamedStores(ck, c)
}

func checkStore(ck *checker, path string, s Store) {
	if s.Latency.Mean < 0 {
		ck.add(path+".latency.mean", "must not be negative, got %v", s.Latency.Mean)
	}
	ck.atMostTime(path+".latency.mean", s.Latency.Mean)
	if !serviceEnum.valid(s.Latency.Kind) {
		ck.add(path+".latency.distribution", "unknown distribution %v", s.Latency.Kind)
	}
	if s.Timeout < 0 {
		ck.add(path+".timeout", "must not be negative, got %v", s.Timeout)
	}
	ck.atMostTime(path+".timeout", s.Timeout)
	checkStoreSystem(ck, path, s)
	if len(s.Outages) > MaxChanges {
		ck.add(path+".outages", "at most %d outages, got %d", MaxChanges, len(s.Outages))
	}
	var prev time.Duration
	for i, o := range s.Outages {
		p := fmt.Sprintf("%s.outages[%d]", path, i)
		if o.From < prev || o.To <= o.From {
			ck.add(p, "outages must be in time order, apart, each with to after from (from %v, to %v)", o.From, o.To)
		}
		ck.atMostTime(p+".to", o.To)
		prev = o.To
	}
	checkBreaker(ck, path+".breaker", s.Breaker)
	if s.Lease < 0 || s.Lease > MaxLease {
		ck.add(path+".lease", "must be 0 (none) to %d, got %d", MaxLease, s.Lease)
	}
	if s.Lease > 0 && s.Racy {
		ck.add(path+".lease", "leases need an atomic store (a lease is taken by one script)")
	}
}

// checkRemedies reports the store's remedies set without a shared limit to apply to.
func checkRemedies(ck *checker, s Store, limits []Limit) {
	for _, l := range limits {
		if l.State == StateShared {
			return
		}
	}
	if s.Breaker.Failures > 0 {
		ck.add("topology.store.breaker", "is only used with a shared limit (state shared): no limit calls the store on its decisions")
	}
	if s.Lease > 0 {
		ck.add("topology.store.lease", "is only used with a shared limit (state shared): no limit calls the store on its decisions")
	}
	if s.RefusalCache {
		ck.add("topology.store.refusal_cache", "is only used with a shared limit (state shared): no limit calls the store on its decisions")
	}
}

// checkBreaker checks a circuit breaker's settings; Failures 0 is none (and
// then every other setting must be 0 too).
func checkBreaker(ck *checker, path string, b Breaker) {
	if b.Failures == 0 {
		if b != (Breaker{}) {
			ck.add(path+".failures", "a breaker needs failures (1 to %d); got 0 with other settings", MaxBreakerCalls)
		}
		return
	}
	if b.Failures < 1 || b.Failures > MaxBreakerCalls {
		ck.add(path+".failures", "must be 1 to %d, got %d", MaxBreakerCalls, b.Failures)
	}
	if b.Probes < 1 || b.Probes > MaxBreakerCalls {
		ck.add(path+".probes", "must be 1 to %d, got %d", MaxBreakerCalls, b.Probes)
	}
	if b.Window <= 0 {
		ck.add(path+".window", "must be positive, got %v", b.Window)
	}
	ck.atMostTime(path+".window", b.Window)
	if b.Cooldown <= 0 {
		ck.add(path+".cooldown", "must be positive, got %v", b.Cooldown)
	}
	ck.atMostTime(path+".cooldown", b.Cooldown)
}

func checkPlacement(ck *checker, path string, l Limit) {
	if !stateEnum.valid(l.State) {
		ck.add(path+".state", "unknown state %v", l.State)
	}
	if !localLimitEnum.valid(l.LocalLimit) {
		ck.add(path+".local_limit", "unknown value %v", l.LocalLimit)
	}
	if !failModeEnum.valid(l.OnStoreError) {
		ck.add(path+".on_store_error", "unknown value %v", l.OnStoreError)
	}
	if l.State == StateSynced {
		if l.SyncInterval < MinSyncInterval {
			ck.add(path+".sync_interval", "a synced limit needs a sync interval of at least %v, got %v", MinSyncInterval, l.SyncInterval)
		}
		ck.atMostTime(path+".sync_interval", l.SyncInterval)
	}
	if l.LocalLimit == LocalDivided && l.State != StateLocal && (l.State != StateShared || l.OnStoreError != FailLocal) {
		ck.add(path+".local_limit", "divided is for a local limit or the fallback of a shared one failing local, not state %v with on_store_error %v", l.State, l.OnStoreError)
	}
	if l.OnStoreError == FailLocal {
		if l.Fallback.Limit == 0 && l.Fallback.Window == 0 {
			ck.add(path+".fallback", "on_store_error local needs a fallback policy (limit and window)")
		} else {
			checkPolicy(ck, path+".fallback", l.Fallback)
		}
	}
}

// checkTopologyCaps bounds the per-replica state tables before any is built.
func checkTopologyCaps(ck *checker, c Config) {
	if c.Topology == nil {
		return
	}
	most := 0
	for _, s := range c.Topology.Replicas {
		most = max(most, s.Count)
	}
	if most <= 1 {
		return
	}
	for i, l := range c.Limits {
		if keys := c.keys(l.Key); int64(keys)*int64(most) > MaxReplicaStates {
			ck.add(fmt.Sprintf("limits[%d].key", i), "%d replicas × about %d keys is over %d per-replica states; use fewer replicas or clients", most, keys, MaxReplicaStates)
		}
	}
}
