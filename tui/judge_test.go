package tui

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// max/win is judged as rlsim run's findings judge it: a concurrency lane is
// never OVER against the rate (the TUI once showed AIMD OVER where the table
// says "not limiting" or the findings note it limits requests in flight), and
// a window is held against the limit in force during it.
func TestMaxPerWindowJudgedAsTheFindings(t *testing.T) {
	limits := []sim.Limit{{Name: "global", Policy: algorithms.Policy{Limit: 10, Window: time.Second}}}
	raised := sim.RuleChange{At: 2 * time.Second, Policy: algorithms.Policy{Limit: 20, Window: time.Second}}
	peak := func(count int64, from time.Duration) sim.WindowPeak {
		return sim.WindowPeak{Count: count, Limit: 10, Start: from, End: from + time.Second}
	}
	tests := []struct {
		name      string
		lane      sim.LaneKind
		rules     []sim.RuleChange
		peak      sim.WindowPeak
		limit     int64
		overLimit bool
	}{
		{"AIMD over the rate", sim.LaneAIMD, nil, peak(30, 0), 10, false},
		{"sliding log after the limit was raised", sim.LaneSlidingLog, []sim.RuleChange{raised}, peak(20, 3*time.Second), 20, false},
		{"sliding log over the raised limit", sim.LaneSlidingLog, []sim.RuleChange{raised}, peak(21, 3*time.Second), 20, true},
		{"a window across the raise", sim.LaneFixedWindow, []sim.RuleChange{raised}, peak(20, 1500*time.Millisecond), 20, false},
		{"before the raise", sim.LaneFixedWindow, []sim.RuleChange{raised}, peak(15, 0), 10, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := sim.Config{Limits: limits, Rules: tc.rules}
			snaps := judged(cfg, []sim.LaneSnapshot{{Lane: tc.lane, Attempts: 100, Admitted: 50, Refused: 50, Peak: tc.peak, OverLimit: true}})
			if s := snaps[0]; s.Peak.Limit != tc.limit || s.OverLimit != tc.overLimit {
				t.Errorf("%d in a window: judged against %d, OVER %v; want against %d, OVER %v",
					s.Peak.Count, s.Peak.Limit, s.OverLimit, tc.limit, tc.overLimit)
			}
		})
	}
}
