package report

import (
	"fmt"
	"strings"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// sheddingFindings reports, per group of lanes with the same figures, what
// the backend's load shedders shed and how each criticality fared.
func sheddingFindings(r sim.Result) []string {
	groups := map[string][]string{}
	var order []string
	for _, l := range r.Lanes {
		if len(l.Criticality) == 0 {
			continue
		}
		var s string
		if len(l.ShedBy) > 0 {
			var by []string
			var n int64
			for _, c := range l.ShedBy {
				by = append(by, fmt.Sprintf("%s %d", c.Limit, c.Count))
				n += c.Count
			}
			s = fmt.Sprintf("the load shedders shed %d attempts with 503 (%s); ", n, strings.Join(by, ", "))
		}
		var per []string
		for _, c := range l.Criticality {
			per = append(per, fmt.Sprintf("%s %d of %d served, %d shed, %d refused", c.Criticality, c.Served, c.Offered, c.Shed, c.Refused))
		}
		s += "by criticality: " + strings.Join(per, "; ")
		if groups[s] == nil {
			order = append(order, s)
		}
		groups[s] = append(groups[s], l.Title())
	}
	var out []string
	for _, s := range order {
		out = append(out, fmt.Sprintf("under %s, %s", list(groups[s]), s))
	}
	return out
}

// sheddingVerdict is what a lane's page says of its concurrency limits and
// load shedders: the most in flight, what the shedders shed and who was
// served by criticality; nil when it has none of them.
func sheddingVerdict(l sim.LaneResult) []string {
	var parts []string
	if len(l.InFlight) > 0 {
		var fs []string
		for _, c := range l.InFlight {
			fs = append(fs, fmt.Sprintf("%s %d", scenarios.Escape(c.Limit), c.Count))
		}
		parts = append(parts, "Most of one key in flight at once: "+strings.Join(fs, ", ")+".")
	}
	if len(l.ShedBy) > 0 {
		var fs []string
		for _, c := range l.ShedBy {
			fs = append(fs, fmt.Sprintf("%s %s", c.Limit, count(c.Count)))
		}
		parts = append(parts, "The load shedders shed "+strings.Join(fs, ", ")+".")
	}
	if len(l.Criticality) > 0 {
		var fs []string
		for _, c := range l.Criticality {
			fs = append(fs, fmt.Sprintf("%s %s of %s", c.Criticality, count(c.Served), count(c.Offered)))
		}
		parts = append(parts, "Served by criticality: "+strings.Join(fs, ", ")+".")
	}
	return parts
}
