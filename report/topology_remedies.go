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
	return fmt.Sprintf("the circuit breakers (open after %d failed store calls within %s, for %s, then %d %s) opened %d %s on %d %s, open %s in all: they saved %d store calls, the decisions meanwhile taken at once, unasked, by the fail modes (%s)",
		b.Failures, FormatDuration(b.Window), FormatDuration(b.Cooldown), b.Probes, plural(b.Probes, "probe", "probes"),
		rem.BreakerOpens, plural(int(rem.BreakerOpens), "time", "times"), len(rem.Breakers), plural(len(rem.Breakers), "replica and shard", "replicas and shards"),
		FormatDuration(rem.BreakerOpenTime), rem.BreakerSaved, strings.Join(modes, ", "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
