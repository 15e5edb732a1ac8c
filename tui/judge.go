package tui

import "github.com/rlsim/rlsim/sim"

// judged reads each lane's busiest window as rlsim run's findings and the
// playground do: against the first limit in force during it (the highest, if a
// rule push fell inside it), so raising the limit does not turn a lane that
// holds it OVER, and never a concurrency lane against a rate it does not
// enforce. It rewrites snaps in place and returns them.
func judged(cfg sim.Config, snaps []sim.LaneSnapshot) []sim.LaneSnapshot {
	for i := range snaps {
		s := &snaps[i]
		s.Peak.Limit = cfg.FirstLimitDuring(s.Peak.Start, s.Peak.End, s.Peak.Limit)
		if s.Peak.Limit > 0 {
			s.Peak.Ratio = float64(s.Peak.Count) / float64(s.Peak.Limit)
		}
		s.OverLimit = s.Peak.Count > s.Peak.Limit && !s.NotLimiting() && s.Lane.Info().Class != sim.ConcurrencyLimiter
	}
	return snaps
}
