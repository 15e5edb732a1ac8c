package tui

import (
	"strings"

	"github.com/rlsim/rlsim/sim"
)

// limitingLines are the view's lines on what the rates and the timeline do
// not show, one per lane that has some (sim.LimitingPhrases): the most of one
// key in flight per concurrency limit of the chain, who was served by
// criticality, and each partition of an adaptive lane's limit.
func (m *Model) limitingLines(lay layout) []string {
	cfg := m.sim.Config()
	var out []string
	for i := range m.snaps {
		s := &m.snaps[i]
		if parts := sim.LimitingPhrases(cfg, s.KeyInFlight, s.Criticality, s.Partitions); len(parts) > 0 {
			out = append(out, laneTitle(s, lay.short)+" · "+strings.Join(parts, " · "))
		}
	}
	return out
}
