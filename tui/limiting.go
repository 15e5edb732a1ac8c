package tui

import (
	"fmt"
	"strings"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// limitingLines are the view's lines on what the rate and the timeline do
// not show, one per lane that has some: the most of one key in flight per
// concurrency limit of the chain (against its places), who was served by
// criticality, and each partition of an adaptive lane's limit.
func (m *Model) limitingLines(lay layout) []string {
	cfg := m.sim.Config()
	var out []string
	for i := range m.snaps {
		s := &m.snaps[i]
		var parts []string
		if len(s.KeyInFlight) > 0 {
			var fs []string
			for _, c := range s.KeyInFlight {
				fs = append(fs, fmt.Sprintf("%s %d of %d", scenarios.Escape(c.Limit), c.Count, placesOf(cfg, c.Limit)))
			}
			parts = append(parts, "most of one key in flight: "+strings.Join(fs, ", "))
		}
		if len(s.Criticality) > 0 {
			var fs []string
			for _, c := range s.Criticality {
				fs = append(fs, fmt.Sprintf("%s %d/%d", c.Criticality, c.Served, c.Offered))
			}
			parts = append(parts, "served/offered by criticality: "+strings.Join(fs, ", "))
		}
		if len(s.Partitions) > 0 {
			var fs []string
			for _, p := range s.Partitions {
				fs = append(fs, fmt.Sprintf("%s %d in, %d refused, %d at once of %s", scenarios.Escape(p.Name), p.Admitted, p.Refused,
					p.MostInFlight, guaranteedText(p)))
			}
			parts = append(parts, "partitions: "+strings.Join(fs, "; "))
		}
		if len(parts) > 0 {
			out = append(out, laneTitle(s, lay.short)+" · "+strings.Join(parts, " · "))
		}
	}
	return out
}

// placesOf is the places of the concurrency limit named name.
func placesOf(cfg sim.Config, name string) int64 {
	for _, l := range cfg.Limits {
		if l.Name == name {
			return l.Concurrency
		}
	}
	return 0
}

// guaranteedText is the places partition p was guaranteed: "9 guaranteed",
// or "6–10 guaranteed" as the limit moved.
func guaranteedText(p sim.PartitionResult) string {
	if lo, hi := p.Guaranteed[0], p.Guaranteed[1]; lo != hi {
		return fmt.Sprintf("%d–%d guaranteed", lo, hi)
	}
	return fmt.Sprintf("%d guaranteed", p.Guaranteed[0])
}
