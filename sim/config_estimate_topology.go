package sim

import "slices"

// topologyEvents is about how many events a topology adds to one lane whose
// attempts make attempts (see EstimateEvents), counting the rebuild of a
// divided local limit's or fallback's tables at each autoscaler step as one
// event per state.
func (c Config) topologyEvents(attempts float64) float64 {
	t := c.Topology
	if t == nil {
		return 0
	}
	var e float64
	shared := false
	most := 1
	for _, s := range t.Replicas {
		most = max(most, s.Count)
	}
	for _, l := range c.Limits {
		shared = shared || l.State == StateShared
		if l.LocalLimit == LocalDivided { // a local limit's, or a fallback's
			// every step rebuilds every replica's table: about an event's work per state
			e += float64(len(t.Replicas)-1) * float64(c.keys(l.Key)) * float64(most)
		}
		if l.State == StateSynced && l.SyncInterval > 0 {
			e += float64((c.Duration + c.Drain) / l.SyncInterval)
		}
	}
	if shared && (t.Store.takesTime() || slices.ContainsFunc(t.Stores, func(n NamedStore) bool { return n.Store.takesTime() })) {
		perCall := 2.0
		if t.Store.Racy {
			perCall = 3
		}
		e += attempts * perCall
	}
	return e + float64(len(t.Replicas)) + c.lossEvents() + c.probeEvents(most)
}

// fleetEvents is topologyEvents over the lanes that decide the chain: each
// lane with a contract of its own (Variant.Topology, Placements) by its own.
func (c Config) fleetEvents(attempts float64) float64 {
	if !slices.ContainsFunc(c.Variants, Variant.ownSetup) {
		return c.topologyEvents(attempts) * float64(c.chainLanes())
	}
	var e float64
	for i, k := range c.Lanes {
		if _, ok := c.chainKind(k); ok {
			e += c.laneConfig(i).topologyEvents(attempts)
		}
	}
	return e
}

// lossEvents is the store's restarts.
func (c Config) lossEvents() float64 {
	s := &c.Topology.Store
	n := len(s.Restarts)
	for _, o := range s.Outages {
		if o.Flush {
			n++
		}
	}
	return float64(n)
}

// probeEvents is a health check's events in a fleet of at most most
// replicas: a round every interval, each probe of it deciding the chain
// (about an event's work) and, when it calls a store that takes time, two
// events more.
func (c Config) probeEvents(most int) float64 {
	h := c.Topology.WithHealthDefaults().Health
	if h == nil || h.Interval <= 0 {
		return 0
	}
	rounds := float64((c.Duration+c.Drain)/h.Interval) + 1
	perProbe := 1.0
	s := &c.Topology.Store
	for _, l := range c.Limits {
		if l.State == StateShared && (l.Endpoint == "" || l.Endpoint == h.Endpoint) &&
			(s.Latency.Mean > 0 || s.Timeout > 0) {
			perProbe = 3
		}
	}
	return rounds * (1 + perProbe*float64(most))
}

// chainLanes is how many of c's lanes decide the limit chain (and so run in its topology).
func (c Config) chainLanes() int {
	n := 0
	for _, k := range c.Lanes {
		if _, ok := c.chainKind(k); ok {
			n++
		}
	}
	return n
}

// fleetShare is how many times its limit a fleet can admit on one key of l:
// the most replicas for a local limit enforcing the whole limit on each, or a
// synced one; 1 otherwise.
func (c Config) fleetShare(l Limit) int {
	if c.Topology == nil || l.State == StateShared || (l.State == StateLocal && l.LocalLimit == LocalDivided) {
		return 1
	}
	most := 1
	for _, s := range c.Topology.Replicas {
		most = max(most, s.Count)
	}
	return most
}

// takesTime reports whether some call to s may take time, so that its
// decision and its reply are events of their own: a latency (from the start
// or by a change), a timeout, or a finite capacity (a service time).
func (s Store) takesTime() bool {
	if s.Latency.Mean > 0 || s.Timeout > 0 || s.Capacity > 0 {
		return true
	}
	for _, ch := range s.Changes {
		if ch.Latency.Mean > 0 || ch.Capacity > 0 {
			return true
		}
	}
	return false
}
