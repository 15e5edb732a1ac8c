package sim

// envoyproxy/ratelimit's near_limit statistic (NEAR_LIMIT_RATIO,
// src/limiter/base_limiter.go at f2fb157): the hits each descriptor counted
// beyond ⌊requests_per_unit × ratio⌋ and within requests_per_unit. The
// states of an envoy_ratelimit table keep it (chain_product_envoyrls.go), so
// it is read from the tables at the end, whatever path decided.

// nearLimit is the store's near_limit hits, those of the tables a rule push
// replaced included.
func (sl *sharedLimit) nearLimit() (int64, bool) {
	n, ok := sl.store.(nearLimiter)
	if !ok {
		return 0, false
	}
	hits, ok := n.nearLimit()
	return hits + sl.nearBefore, ok
}

// keepNearLimit keeps, before limit i's table is replaced by a rule push, the
// near_limit hits it counted.
func (l *lane) keepNearLimit(i int, old decider) {
	if n, ok := old.(nearLimiter); ok {
		if hits, ok := n.nearLimit(); ok {
			if l.nearReplaced == nil {
				l.nearReplaced = make([]int64, len(l.chain))
			}
			l.nearReplaced[i] += hits
		}
	}
}

// nearLimits are the near_limit hits of each limit whose tables count them
// (an envoy_ratelimit lane's, without a topology or in the store of a shared
// limit), in chain order; nil when none does.
func (l *lane) nearLimits() []LimitCount {
	var out []LimitCount
	for i := range l.limits {
		var d any
		switch {
		case l.fleet != nil && i < len(l.fleet.limits):
			d = l.fleet.limits[i]
		case l.fleet == nil && i < len(l.chain):
			d = l.chain[i]
		}
		n, ok := d.(nearLimiter)
		if !ok {
			continue
		}
		hits, ok := n.nearLimit()
		if !ok {
			continue
		}
		if i < len(l.nearReplaced) {
			hits += l.nearReplaced[i]
		}
		out = append(out, LimitCount{Limit: l.limits[i].Name, Count: hits})
	}
	return out
}
