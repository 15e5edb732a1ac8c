package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// Lanes that run their own stores and placements (sim.LaneResult.Setup):
// each is told with its own contract, and compared with the first lane.

// setupGroup is the lanes of a run that share one contract with the fleet:
// r holds them alone, with their limits and topology.
type setupGroup struct {
	r    sim.Result
	topo *sim.Topology
}

// setupGroups splits r's lanes by their contract: those running the
// scenario's first (topo and r.Limits), then each lane with its own.
func setupGroups(r sim.Result, topo *sim.Topology) []setupGroup {
	base := setupGroup{r: r, topo: topo}
	base.r.Lanes = nil
	var own []setupGroup
	for _, l := range r.Lanes {
		if l.Setup == nil {
			base.r.Lanes = append(base.r.Lanes, l)
			continue
		}
		g := setupGroup{r: r, topo: l.Setup.Topology}
		g.r.Lanes, g.r.Limits, g.r.Topology = []sim.LaneResult{l}, l.Setup.Limits, l.Setup.Topology
		own = append(own, g)
	}
	if len(own) == 0 {
		return []setupGroup{{r: r, topo: topo}}
	}
	if len(base.r.Lanes) == 0 {
		return own
	}
	return append([]setupGroup{base}, own...)
}

// fleetFindings are topologyFindings told for each group of lanes with its
// own contract, then how each lane with its own compares with the first.
func fleetFindings(r sim.Result, topo *sim.Topology) []string {
	groups := setupGroups(r, topo)
	if len(groups) == 1 {
		return topologyFindings(r, topo)
	}
	var out []string
	for _, g := range groups {
		out = append(out, topologyFindings(g.r, g.topo)...)
	}
	return append(out, contractFindings(r)...)
}

// contractFindings compare each lane with a contract of its own with the
// run's first lane, on the same traffic: each class served, the attempts let
// through while a store was unavailable, the store calls, and the replicas
// taken out of the rotation.
func contractFindings(r sim.Result) []string {
	if len(r.Lanes) < 2 || r.Lanes[0].Topology == nil {
		return nil
	}
	base := r.Lanes[0]
	var out []string
	for _, l := range r.Lanes[1:] {
		if l.Setup == nil || l.Topology == nil {
			continue
		}
		parts := []string{servedWords(l, base), letThroughWords(l, base),
			fmt.Sprintf("%d store calls against %d", l.Topology.StoreCalls, base.Topology.StoreCalls), rotationWords(l, base)}
		out = append(out, fmt.Sprintf("%s beside %s, on the same traffic: %s", fleetLaneName(l), fleetLaneName(base), strings.Join(parts, "; ")))
	}
	return out
}

// servedWords: each class's requests served, of its unique requests, in l
// against base.
func servedWords(l, base sim.LaneResult) string {
	var out []string
	for i, c := range l.Classes {
		if i >= len(base.Classes) {
			break
		}
		b := base.Classes[i]
		out = append(out, fmt.Sprintf("%s served %s (%d of %d requests) against %s (%d)", scenarios.Escape(c.Name),
			percent(c.Succeeded, c.Unique), c.Succeeded, c.Unique, percent(b.Succeeded, b.Unique), b.Succeeded))
	}
	return strings.Join(out, ", ")
}

// letThroughWords: the attempts the shared limits admitted while their store
// was unavailable (by their fail modes), by limit, in l against base.
func letThroughWords(l, base sim.LaneResult) string {
	var parts []string
	var total, baseTotal int64
	for i, lt := range l.Topology.Limits {
		n := letThrough(lt)
		var b int64
		if i < len(base.Topology.Limits) {
			b = letThrough(base.Topology.Limits[i])
		}
		total, baseTotal = total+n, baseTotal+b
		if n+b > 0 {
			parts = append(parts, fmt.Sprintf("%s %d against %d", scenarios.Escape(lt.Limit), n, b))
		}
	}
	out := fmt.Sprintf("%d attempts let through while a store was unavailable against %d", total, baseTotal)
	if len(parts) > 0 {
		out += " (" + strings.Join(parts, ", ") + ")"
	}
	return out
}

// letThrough is what limit lt let through while its store was unavailable.
func letThrough(lt sim.LimitTopology) int64 {
	var n int64
	for _, c := range lt.Classes {
		n += c.Admitted
	}
	return n
}

// rotationWords: the replicas taken out of the rotation, and the time with
// none in it, in l against base.
func rotationWords(l, base sim.LaneResult) string {
	h, b := l.Topology.Health, base.Topology.Health
	if h == nil || b == nil {
		return "no health check"
	}
	return fmt.Sprintf("replicas taken out of the rotation %d times against %d, none left in it for %s against %s",
		h.Removals, b.Removals, spanWords(h.NoHealthyFor), spanWords(b.NoHealthyFor))
}

// spanWords is a time span as the findings say one, 0s for none.
func spanWords(d time.Duration) string {
	if d == 0 {
		return "0s"
	}
	return FormatDuration(d)
}

// setupNotes say, for each lane with a contract of its own, where it keeps
// each limit's state and what its stores are: "contract: login shared on
// store abuse, falls back to …; breaker after 5 failures in 1s".
func setupNotes(r sim.Result) []string {
	var out []string
	for _, l := range r.Lanes {
		if l.Setup == nil {
			continue
		}
		var parts []string
		for _, lim := range l.Setup.Limits {
			parts = append(parts, scenarios.Escape(lim.Name)+" "+stateWords(lim))
		}
		if t := l.Setup.Topology; t != nil {
			if b := t.Store.Breaker; b.Failures > 0 {
				parts = append(parts, fmt.Sprintf("a breaker after %d failed calls within %s, open %s, %d probes", b.Failures, FormatDuration(b.Window), FormatDuration(b.Cooldown), b.Probes))
			}
			if t.Store.RefusalCache {
				parts = append(parts, "a refusal cache")
			}
			if t.Store.Lease > 0 {
				parts = append(parts, fmt.Sprintf("leases of %d", t.Store.Lease))
			}
			for _, ns := range t.Stores {
				parts = append(parts, "store "+scenarios.Escape(ns.Name)+": "+strings.TrimPrefix(namedStorePhrase(ns.Store), ", "))
			}
		}
		out = append(out, fleetLaneName(l)+": "+strings.Join(parts, "; "))
	}
	return out
}

// namedStorePhrase says a named store in a few words: its round trip,
// timeout, capacity, queue and memory.
func namedStorePhrase(s sim.Store) string {
	out := ""
	if s.Latency.Mean > 0 {
		out += ", " + FormatDuration(s.Latency.Mean) + " mean round trip"
	}
	if s.Timeout > 0 {
		out += ", timeout " + FormatDuration(s.Timeout)
	}
	out += storePhrase(s)
	if out == "" {
		return ", instantaneous"
	}
	return out
}

// baseNotes say, in a run where some lanes have contracts of their own,
// where the others keep each limit's state: "as-deployed: login shared,
// fails open; …".
func baseNotes(r sim.Result) []string {
	var names, parts []string
	for _, l := range r.Lanes {
		if l.Setup == nil && l.Topology != nil {
			names = append(names, fleetLaneName(l))
		}
	}
	if len(names) == 0 {
		return nil
	}
	for _, lim := range r.Limits {
		parts = append(parts, scenarios.Escape(lim.Name)+" "+stateWords(lim))
	}
	return []string{list(names) + ": " + strings.Join(parts, "; ")}
}
