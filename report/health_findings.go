package report

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// healthFindings says what the health check did in each lane, and when the
// store restarted and what it forgot.
func healthFindings(r sim.Result, topo *sim.Topology) []string {
	out := restartFindings(r, topo)
	h := topo.WithHealthDefaults().Health
	if h == nil {
		return out
	}
	return append(out, byLanes(r, func(l sim.LaneResult) string { return healthFinding(h, l) })...)
}

// healthFinding: how many probes failed, which replicas left the rotation
// for how long, and how many attempts found none in it; "" when every probe passed.
func healthFinding(h *sim.HealthCheck, l sim.LaneResult) string {
	hr := l.Topology.Health
	if hr == nil || hr.Failed == 0 {
		return ""
	}
	s := fmt.Sprintf("%d of %d health checks of %s failed", hr.Failed, hr.Probes, scenarios.Escape(h.Endpoint))
	if hr.Removals == 0 {
		return s + fmt.Sprintf(", never %d in a row: no replica left the rotation", h.UnhealthyAfter)
	}
	var outs []string
	for j, d := range hr.Out {
		if d > 0 {
			outs = append(outs, fmt.Sprintf("replica %d for %s", j, FormatDuration(d)))
		}
	}
	s += fmt.Sprintf(" and took replicas out of the rotation %s (after %s in a row, back after %s): %s",
		times(hr.Removals, "once", "times"), times(h.UnhealthyAfter, "failure", "failures"), times(h.HealthyAfter, "pass", "passes"), strings.Join(outs, ", "))
	if hr.NoHealthyFor > 0 {
		s += fmt.Sprintf("; for %s no replica was in it and the load balancer answered 503 to %d attempts",
			FormatDuration(hr.NoHealthyFor), hr.NoHealthy) + noHealthyClasses(l)
	}
	return s
}

// noHealthyClasses says, with several classes, whose attempts the load
// balancer answered 503: " (members 1459, attacker 30145)"; "" otherwise.
func noHealthyClasses(l sim.LaneResult) string {
	if len(l.Classes) < 2 {
		return ""
	}
	parts := make([]string, len(l.Classes))
	for i, c := range l.Classes {
		parts[i] = fmt.Sprintf("%s %d", scenarios.Escape(c.Name), c.ShedNoHealthy)
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// restartFindings: each restart of the store, and the limits it emptied.
func restartFindings(r sim.Result, topo *sim.Topology) []string {
	var at []string
	for _, t := range topo.Store.Restarts {
		if t < r.Duration {
			at = append(at, "t="+FormatDuration(t))
		}
	}
	for _, o := range topo.Store.Outages {
		if o.Flush && o.From < r.Duration {
			at = append(at, "t="+FormatDuration(o.From))
		}
	}
	var forgot []string
	for _, lim := range r.Limits {
		if lim.State == sim.StateShared || lim.State == sim.StateSynced {
			forgot = append(forgot, scenarios.Escape(lim.Name))
		}
	}
	if len(at) == 0 || len(forgot) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("the store restarted empty at %s: %s forgot what it had counted and started afresh",
		list(at), list(forgot))}
}

// partitionTime is how long, before end, some replica was cut off the
// store: the union of the partitions, which may overlap.
func partitionTime(t *sim.Topology, end time.Duration) time.Duration {
	spans := make([][2]time.Duration, 0, len(t.Store.Partitions))
	for _, p := range t.Store.Partitions {
		spans = append(spans, [2]time.Duration{min(p.From, end), min(p.To, end)})
	}
	slices.SortFunc(spans, func(a, b [2]time.Duration) int { return cmp.Compare(a[0], b[0]) })
	var d, reach time.Duration
	for _, s := range spans {
		from := max(s[0], reach)
		if s[1] > from {
			d += s[1] - from
		}
		reach = max(reach, s[1])
	}
	return d
}

// lossPhrase says the store's restarts and partitions and the health check
// in a few words, for fleetPhrase: ", restarted t=30s, replica 1 cut off
// t=5s–10s; health-checked on /health every 5s (out after 2 failures, back
// after 3 passes)".
func lossPhrase(t *sim.Topology) string {
	var s string
	for _, at := range t.Store.Restarts {
		s += ", restarted t=" + FormatDuration(at)
	}
	for _, p := range t.Store.Partitions {
		reps := make([]string, len(p.Replicas))
		for i, r := range p.Replicas {
			reps[i] = fmt.Sprint(r)
		}
		word := "replica"
		if len(reps) > 1 {
			word = "replicas"
		}
		s += fmt.Sprintf(", %s %s cut off t=%s–%s", word, list(reps), FormatDuration(p.From), FormatDuration(p.To))
		if p.Hung {
			s += " (hung)"
		}
	}
	if h := t.WithHealthDefaults().Health; h != nil {
		s += fmt.Sprintf("; health-checked on %s every %s (out after %s, back after %s)",
			scenarios.Escape(h.Endpoint), FormatDuration(h.Interval), times(h.UnhealthyAfter, "failure", "failures"), times(h.HealthyAfter, "pass", "passes"))
	}
	return s
}

// times is "n things", "1 thing" or, with one "once", "once".
func times(n int, one, many string) string {
	if n == 1 {
		if one == "once" {
			return one
		}
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// noHealthyShare says how many of lane l's 503s the load balancer gave for
// want of a replica in its rotation, or "".
func noHealthyShare(l sim.LaneResult) string {
	if l.Topology == nil || l.Topology.Health == nil || l.Topology.Health.NoHealthy == 0 {
		return ""
	}
	n := l.Topology.Health.NoHealthy
	if n == l.Shed {
		return " (all of them by the load balancer, with no replica in its rotation)"
	}
	return fmt.Sprintf(" (%d of them by the load balancer, with no replica in its rotation)", n)
}
