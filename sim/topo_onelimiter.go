package sim

// A fleet of one replica with one local limit of the whole policy decides
// every attempt as one limiter with no topology: the replica's table is that
// limiter, and its exact twin, fed the same attempts, decides as it does. So
// such a lane runs as without a topology (the kernel and the quick path
// included), and its topology figures are read from the lane's own: every
// window of the fleet (Fleet, Replica, Arrived, Exact) counted the lane's
// admissions of the limit at the instants its peak did. Its fleet is built
// only for what the result says of it (the store it never calls, no phase).

// oneLimiterFleet reports whether lane l's topology decides as one limiter
// and schedules nothing of its own: one replica for the whole run, no health
// check, no store restart; one local limit of the whole policy, not a
// concurrency limit, with no bounded key table (which a fleet does not keep)
// and no trace nor columns (whose records name the replica).
func (l *lane) oneLimiterFleet() bool {
	t := l.cfg.Topology
	if oneLimiterOff || l.trace != nil || l.cols != nil || t.Health != nil || len(t.Replicas) != 1 || t.Replicas[0].Count != 1 ||
		len(t.Store.Restarts) > 0 || len(l.cfg.Limits) != 1 || l.cfg.options.Keys > 0 {
		return false
	}
	for _, o := range t.Store.Outages {
		if o.Flush {
			return false
		}
	}
	lim := &l.cfg.Limits[0]
	return lim.State == StateLocal && lim.LocalLimit == LocalFull && lim.Concurrency == 0
}

// buildAsOne builds, beside the lane's chain of one limiter, the fleet its
// topology result is drawn from; or the fleet it runs through after all, when
// its limiter counts near_limit hits (which a fleet's local tables do not).
func (l *lane) buildAsOne(kind LaneKind) error {
	if n, ok := l.chain[0].(nearLimiter); ok {
		if _, counts := n.nearLimit(); counts {
			l.chain, l.policies, l.limits, l.shadow = nil, nil, nil, nil
			l.quick, l.direct = nil, directPath{}
			return l.buildFleet(kind)
		}
	}
	f, err := newFleet(l, kind)
	l.asOne = f
	return err
}

// oneLimiterResult is the topology result of a lane run as one limiter:
// every window of its one limit is the lane's peak.
func (f *fleet) oneLimiterResult() *TopologyResult {
	r := f.topologyResult(f.lane.cfg)
	l := f.lane
	lt := &r.Limits[0]
	peak := WindowPeak(l.m.peak.Worst(l.pop.keys[0].name))
	lt.Fleet, lt.Replica, lt.Arrived, lt.Exact = peak, peak, peak, peak
	lt.BusiestReplica, lt.Overshoot = 0, 0
	return r
}
