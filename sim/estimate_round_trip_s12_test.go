package sim

import (
	"context"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// runCounts runs cfg and returns its events and its first lane's attempts,
// unique requests and refusals.
func runCounts(t *testing.T, cfg Config) (events, attempts, unique, refused int64) {
	t.Helper()
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := s.RunToEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var l LaneResult
	for _, x := range r.Lanes {
		l.Attempts += x.Attempts
		l.Unique += x.Unique
		l.Refused += x.Refused
	}
	return s.Events(), l.Attempts, l.Unique, l.Refused
}

// EstimateEvents' doc: with a round trip, each first attempt's arrival at the
// limiter and each answer's way back is an event. Under the limit nothing is
// refused, so a group with a round trip costs exactly two events per attempt
// (its send and its arrival at the limiter) and one without costs one, in
// every lane; the run's own counters give the independent count. A way is
// half the round trip (lane.halfTrip), so 2ns is the shortest that takes one.
func TestEstimateCountsEachFirstAttemptsWayToTheLimiter(t *testing.T) {
	limit := []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 100, Window: time.Second}}}
	threePerSecond := []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 3, Per: time.Second}}}
	for _, lane := range []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneTokenBucket, LaneGCRA} {
		for _, tc := range []struct {
			name   string
			groups []ClientGroup
			want   int64 // 2 s of 3/s per client: 6 attempts each
		}{
			{"no round trip", []ClientGroup{{Count: 1, Arrivals: threePerSecond}}, 6},
			{"a 2ns round trip, the shortest with a 1ns way", []ClientGroup{{Count: 1, RTT: 2, Arrivals: threePerSecond}}, 12},
			{"a 40ms round trip", []ClientGroup{{Count: 1, RTT: 40 * time.Millisecond, Arrivals: threePerSecond}}, 12},
			{"two clients with one, two without", []ClientGroup{
				{Count: 2, RTT: 40 * time.Millisecond, Arrivals: threePerSecond},
				{Count: 2, Arrivals: threePerSecond}}, 2*12 + 2*6},
			{"without one, then with one", []ClientGroup{
				{Count: 1, Arrivals: threePerSecond},
				{Count: 3, RTT: 10 * time.Millisecond, Arrivals: threePerSecond}}, 6 + 3*12},
		} {
			t.Run(lane.String()+"/"+tc.name, func(t *testing.T) {
				cfg := Config{Duration: 2 * time.Second, Lanes: []LaneKind{lane}, Limits: limit, Clients: tc.groups}
				events, attempts, unique, refused := runCounts(t, cfg)
				if refused != 0 {
					t.Fatalf("the run refused %d attempts, want none: the world is under its limit", refused)
				}
				var withRTT int64 // first attempts of groups with a round trip
				for _, g := range tc.groups {
					if g.RTT > 0 {
						withRTT += int64(g.Count) * 6
					}
				}
				if real := attempts + withRTT; events != real || events != tc.want {
					t.Fatalf("the run processed %d events, want %d = %d attempts + %d first attempts' ways (unique %d)", events, tc.want, attempts, withRTT, unique)
				}
				if est := cfg.EstimateEvents(); est != tc.want {
					t.Errorf("EstimateEvents() = %d, want %d: %d attempts and the %d first attempts' ways to the limiter", est, tc.want, attempts, withRTT)
				}
			})
		}
	}
}

// With refusals and no retries, a round trip adds each first attempt's way to
// the limiter and each refusal's way back. The estimate's refusals are the
// arrivals over the chain's capacity (burst + limit × duration, see capacity):
// 40 arrivals against 5 + 5×2 = 15, so 25 refused, and the round trip adds
// 40 + 25 events to the 40 sends.
func TestEstimateCountsARoundTripsWayToTheLimiterAndEachRefusalsWayBack(t *testing.T) {
	limit := []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 5, Window: time.Second}}}
	twentyPerSecond := []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 20, Per: time.Second}}}
	for _, lane := range []LaneKind{LaneFixedWindow, LaneTokenBucket, LaneGCRA} {
		t.Run(lane.String(), func(t *testing.T) {
			cfg := func(rtt time.Duration) Config {
				return Config{Duration: 2 * time.Second, Lanes: []LaneKind{lane}, Limits: limit,
					Clients: []ClientGroup{{Count: 1, RTT: rtt, Arrivals: twentyPerSecond}}}
			}
			const arrivals, capacity = 40, 5 + 5*2
			without, with := cfg(0).EstimateEvents(), cfg(40*time.Millisecond).EstimateEvents()
			if without != arrivals {
				t.Errorf("no round trip: EstimateEvents() = %d, want %d, one per arrival", without, arrivals)
			}
			if got, want := with-without, int64(arrivals+(arrivals-capacity)); got != want {
				t.Errorf("a 40ms round trip adds %d to EstimateEvents(), want %d: %d ways to the limiter and %d refusals' ways back", got, want, arrivals, arrivals-capacity)
			}
			// The run agrees with the shape: its round trip adds its first
			// attempts' ways and its refusals' ways, close to the estimate's.
			e0, _, _, _ := runCounts(t, cfg(0))
			e1, _, unique, refused := runCounts(t, cfg(40*time.Millisecond))
			if e1-e0 != unique+refused {
				t.Errorf("the run's round trip added %d events, want %d unique + %d refused", e1-e0, unique, refused)
			}
			if d := (e1 - e0) - (with - without); d < -6 || d > 6 {
				t.Errorf("the round trip adds %d events to the run but %d to the estimate", e1-e0, with-without)
			}
		})
	}
}
