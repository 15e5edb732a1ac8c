package report

import (
	"fmt"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// concurrencyFindings reports, per concurrency limit of the chain and per
// group of lanes with the same figures, what it refused and the most
// requests of one key it had in flight.
func concurrencyFindings(r sim.Result) []string {
	var out []string
	for i, lim := range r.Limits {
		if lim.Concurrency == 0 {
			continue
		}
		groups := map[string][]string{}
		var order []string
		for _, l := range r.Lanes {
			most, ok := inFlightOf(l, lim.Name)
			if !ok || i >= len(l.RefusedBy) {
				continue // a lane without the chain
			}
			s := fmt.Sprintf("refused %d attempts, each when all %d places of its key (%s) were in flight (the most in flight at once: %d)",
				l.RefusedBy[i].Count, lim.Concurrency, lim.Key, most)
			if i < len(l.ShadowRefusedBy) && l.ShadowRefusedBy[i].Count > 0 {
				s += fmt.Sprintf("; as a shadow it would have refused %d", l.ShadowRefusedBy[i].Count)
			}
			if groups[s] == nil {
				order = append(order, s)
			}
			groups[s] = append(groups[s], l.Title())
		}
		for _, s := range order {
			out = append(out, fmt.Sprintf("under %s, the concurrency limit %s %s", list(groups[s]), scenarios.Escape(lim.Name), s))
		}
	}
	return out
}

// inFlightOf is the most in flight at once lane l counted for the
// concurrency limit named name; ok is false when it has no such count.
func inFlightOf(l sim.LaneResult, name string) (most int64, ok bool) {
	for _, c := range l.InFlight {
		if c.Limit == name {
			return c.Count, true
		}
	}
	return 0, false
}

// describeConcurrency is concurrency limit l as the table's heading names it.
func describeConcurrency(l sim.Limit) string {
	s := fmt.Sprintf("%s %d at once", scenarios.Escape(l.Name), l.Concurrency)
	if l.Name != l.Key.String() {
		s += " by " + l.Key.String()
	}
	return s
}
