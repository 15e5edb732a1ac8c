package report

import (
	"fmt"
	"strings"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// remedyFindings say what the store's remedies saved and cost, lane by lane.
func remedyFindings(r sim.Result, topo *sim.Topology) []string {
	var out []string
	out = append(out, byLanes(r, func(l sim.LaneResult) string { return breakerFinding(r, topo, l) })...)
	out = append(out, byLanes(r, func(l sim.LaneResult) string { return cacheFinding(topo, l) })...)
	out = append(out, byLanes(r, func(l sim.LaneResult) string { return leaseFinding(r, topo, l) })...)
	return out
}

// breakerFinding: the breakers opened, were open so long, and saved so many
// store calls, the decisions meanwhile taken by the fail modes unasked.
func breakerFinding(r sim.Result, topo *sim.Topology, l sim.LaneResult) string {
	rem := l.Topology.Remedies
	if topo.Store.Breaker.Failures == 0 || rem.BreakerOpens == 0 {
		return ""
	}
	b := topo.Store.Breaker
	var modes []string
	for _, lim := range r.Limits {
		if lim.State == sim.StateShared {
			modes = append(modes, fmt.Sprintf("%s %s", scenarios.Escape(lim.Name), lim.OnStoreError))
		}
	}
	return fmt.Sprintf("the circuit breakers (open after %d failed store calls within %s, for %s, then %d %s) opened %d %s, on %d %s, open %s in all: they saved %d store calls, the decisions meanwhile taken at once, unasked, by the fail modes (%s)",
		b.Failures, FormatDuration(b.Window), FormatDuration(b.Cooldown), b.Probes, plural(b.Probes, "probe", "probes"),
		rem.BreakerOpens, plural(int(rem.BreakerOpens), "time", "times"), len(rem.Breakers), plural(len(rem.Breakers), "replica × shard breaker", "replica × shard breakers"),
		FormatDuration(rem.BreakerOpenTime), rem.BreakerSaved, strings.Join(modes, ", "))
}

// cacheFinding: the refusal caches refused so many attempts without a call,
// saving so many calls, and so many of those refusals the store would have
// admitted.
func cacheFinding(topo *sim.Topology, l sim.LaneResult) string {
	rem := l.Topology.Remedies
	if !topo.Store.RefusalCache || rem.CacheHits == 0 {
		return ""
	}
	cost := "none of which the store would have admitted"
	if rem.CacheDiffers > 0 {
		cost = fmt.Sprintf("%d of which (%s) the store would have admitted, its state as it was at the attempt", rem.CacheDiffers, percent(rem.CacheDiffers, rem.CacheHits))
	}
	return fmt.Sprintf("the replicas' refusal caches refused %d attempts without calling the store, saving %d store calls (%s of the %d made and saved): %s",
		rem.CacheHits, rem.CacheSaved, percent(rem.CacheSaved, rem.CacheSaved+l.Topology.StoreCalls), rem.CacheSaved+l.Topology.StoreCalls, cost)
}

// leaseFinding: the decisions leases took without a call, beside the calls
// made; the units leased and expired unspent; each shared limit's overshoot
// against the bound replicas × lease.
func leaseFinding(r sim.Result, topo *sim.Topology, l sim.LaneResult) string {
	rem := l.Topology.Remedies
	if topo.Store.Lease == 0 || rem.LeaseTaken == 0 {
		return ""
	}
	n := l.Topology.Replicas
	var over []string
	for i, lim := range r.Limits {
		if lt, ok := limitOf(l, i); ok && lim.State == sim.StateShared {
			over = append(over, fmt.Sprintf("%s by %d", scenarios.Escape(lt.Limit), lt.Overshoot))
		}
	}
	return fmt.Sprintf("with leases of %d units the replicas took %d decisions on leased units without a store call, beside %d store calls; of %d units leased %d expired unspent; the fleet overshot one exact limiter %s in its busiest window (at most %d %s × %d = %d)",
		topo.Store.Lease, rem.LeaseLocal, l.Topology.StoreCalls, rem.LeaseTaken, rem.LeaseExpired, strings.Join(over, ", "),
		n, plural(n, "replica", "replicas"), topo.Store.Lease, int64(n)*topo.Store.Lease)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
