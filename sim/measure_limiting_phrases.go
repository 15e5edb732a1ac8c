package sim

import (
	"fmt"
	"strings"
)

// LimitingPhrases are what the live views (the TUI, the playground) say of a
// lane beside its rate figures and its timeline, one phrase each, nil when it
// has none of them: the most of one key in flight per concurrency limit of
// the chain against its places (inFlight, as LaneResult.InFlight), the
// attempts served of those offered per criticality (crit), and each
// partition of an adaptive lane's limit (parts).
func LimitingPhrases(cfg Config, inFlight []LimitCount, crit []CriticalityResult, parts []PartitionResult) []string {
	var out []string
	if len(inFlight) > 0 {
		var fs []string
		for _, c := range inFlight {
			fs = append(fs, fmt.Sprintf("%s %d of %d", c.Limit, c.Count, placesOf(cfg, c.Limit)))
		}
		out = append(out, "most of one key in flight: "+strings.Join(fs, ", "))
	}
	if len(crit) > 0 {
		var fs []string
		for _, c := range crit {
			fs = append(fs, fmt.Sprintf("%s %d/%d", c.Criticality, c.Served, c.Offered))
		}
		out = append(out, "served/offered by criticality: "+strings.Join(fs, ", "))
	}
	if len(parts) > 0 {
		var fs []string
		for _, p := range parts {
			g := fmt.Sprint(p.Guaranteed[0])
			if p.Guaranteed[0] != p.Guaranteed[1] {
				g = fmt.Sprintf("%d–%d", p.Guaranteed[0], p.Guaranteed[1])
			}
			fs = append(fs, fmt.Sprintf("%s %d in, %d refused, %d at once of %s guaranteed", p.Name, p.Admitted, p.Refused, p.MostInFlight, g))
		}
		out = append(out, "partitions: "+strings.Join(fs, "; "))
	}
	return out
}

// placesOf is the places of cfg's concurrency limit named name.
func placesOf(cfg Config, name string) int64 {
	for _, l := range cfg.Limits {
		if l.Name == name {
			return l.Concurrency
		}
	}
	return 0
}
