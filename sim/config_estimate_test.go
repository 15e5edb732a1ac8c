package sim

import (
	"context"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

func TestEstimateEvents(t *testing.T) {
	limit := []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 100, Window: time.Second}}}
	constant := func(count int64, per time.Duration) []Arrival {
		return []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: count, Per: per}}}
	}
	tests := []struct {
		name     string
		cfg      Config
		min, max int64
	}{
		// 1.6 million requests over 8 lanes, one event each: far under the default budget.
		{"1.6M requests, 8 lanes", Config{Duration: 160 * time.Second, Limits: limit,
			Clients: []ClientGroup{{Count: 100, Arrivals: constant(100, time.Second)}}}, 12_800_000, 12_800_000},
		{"on/off counts whole cycles", Config{Duration: time.Second, Limits: limit, Lanes: []LaneKind{LaneGCRA},
			Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalOnOff, Rate: Rate{Count: 10, Per: time.Second}, On: 200 * time.Millisecond, Off: 300 * time.Millisecond}}}}}, 4, 4},
		{"on/off of 1ns", Config{Duration: time.Second, Limits: limit, Lanes: []LaneKind{LaneGCRA},
			Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalOnOff, Rate: Rate{Count: 1, Per: time.Nanosecond}, On: 1, Off: 1}}}}}, 500_000_000, 500_000_000},
		{"a 1ns fixed retry under overload, no cap: as many as fit", Config{Duration: time.Second, Limits: limit, Lanes: []LaneKind{LaneGCRA},
			Clients: []ClientGroup{{Count: 1, Arrivals: constant(1000, time.Second), Retry: Retry{Kind: RetryFixed, Delay: 1}}}}, 1e9, 1 << 62},
		{"capped retries under overload", Config{Duration: time.Second, Limits: limit, Lanes: []LaneKind{LaneGCRA},
			Clients: []ClientGroup{{Count: 1, Arrivals: constant(1000, time.Second), Retry: Retry{Kind: RetryImmediate, MaxAttempts: 3}}}}, 2000, 3000},
		{"no retries while under the limit", Config{Duration: time.Second, Limits: limit, Lanes: []LaneKind{LaneGCRA},
			Clients: []ClientGroup{{Count: 1, Arrivals: constant(50, time.Second), Retry: Retry{Kind: RetryImmediate, MaxAttempts: 3}}}}, 50, 50},
		// Clients that never send still cost their setup, in every lane.
		{"silent clients cost their setup", Config{Duration: time.Second, Limits: limit, Lanes: []LaneKind{LaneGCRA, LaneSlidingLog},
			Clients: []ClientGroup{{Count: 3_000_000, Arrivals: []Arrival{{Kind: ArrivalBurst, At: 2 * time.Second, Count: 1}}}}}, 6_000_000, 6_000_000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.cfg.Validate(); err != nil {
				t.Fatal(err)
			}
			if n := tc.cfg.EstimateEvents(); n < tc.min || n > tc.max {
				t.Errorf("EstimateEvents() = %d, want within [%d, %d]", n, tc.min, tc.max)
			}
		})
	}
}

// TestEstimateMatchesSmallRuns checks the exact cases against a real count: a
// run under its limit, without retries or a backend, makes one event per arrival
// (the leaky bucket, which delays rather than refuses, one more per delay).
func TestEstimateMatchesSmallRuns(t *testing.T) {
	cfg := Config{Duration: 2 * time.Second, Lanes: []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneTokenBucket, LaneGCRA, LaneAIMD, LaneClientThrottle}, Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 100, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 7, Arrivals: []Arrival{
			{Kind: ArrivalConstant, Rate: Rate{Count: 3, Per: 70 * time.Millisecond}},
			{Kind: ArrivalIdleThenBurst, Idle: 300 * time.Millisecond, Count: 4, Spread: 20 * time.Millisecond},
			{Kind: ArrivalOnOff, Rate: Rate{Count: 9, Per: time.Second}, On: 250 * time.Millisecond, Off: 150 * time.Millisecond},
			{Kind: ArrivalBurst, At: 1500 * time.Millisecond, Count: 5},
		}}}}
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RunToEnd(context.Background()); err != nil {
		t.Fatal(err)
	}
	if est := cfg.EstimateEvents(); est != s.Events() {
		t.Errorf("EstimateEvents() = %d, the run processed %d", est, s.Events())
	}
}

// A pacing client far over its share holds its backlog at every reset: the
// estimate counts those holds, within 2× of the real count at any overload.
func TestEstimateCountsPacingHolds(t *testing.T) {
	for _, rate := range []int64{4, 6, 20, 50} {
		cfg := Config{Duration: 20 * time.Second, Lanes: []LaneKind{LaneGCRA, LaneFixedWindow},
			Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
			Clients: []ClientGroup{{Count: 3, Pace: true,
				Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: rate, Per: time.Second}}}}}}
		s, err := New(cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.RunToEnd(context.Background()); err != nil {
			t.Fatal(err)
		}
		est, real := cfg.EstimateEvents(), s.Events()
		if est > 2*real || real > 2*est {
			t.Errorf("%d/s against 5/s: EstimateEvents() = %d, the run processed %d", rate, est, real)
		}
	}
}
