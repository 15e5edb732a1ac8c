package sim

import (
	"math"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// A superposed group is the process it replaces: each client's requests are
// Poisson at its own rate (count within 5 sd of rate × duration), whether its
// group is superposed or not, and the group's clients start alike.
func TestSuperposedGroupIsEachClientsPoisson(t *testing.T) {
	const dur = 20_000 * time.Second
	for _, tc := range []struct {
		name       string
		count      int
		components int
		superposed bool
	}{
		{"ten clients, one Poisson component", 10, 1, true},
		{"one client", 1, 1, false},
		{"ten clients, two components", 10, 2, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			arrivals := make([]Arrival, tc.components)
			for j := range arrivals {
				arrivals[j] = Arrival{Kind: ArrivalPoisson, Rate: Rate{Count: 1, Per: time.Second}}
			}
			cfg := Config{Duration: dur, Seed: 3, Lanes: []LaneKind{LaneTokenBucket},
				Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
				Clients: []ClientGroup{{Count: tc.count, Arrivals: arrivals}}}
			s, err := New(cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := s.lanes[0].pop.superposed[0]; got != tc.superposed {
				t.Fatalf("superposed = %v, want %v", got, tc.superposed)
			}
			if err := s.RunUntil(dur); err != nil {
				t.Fatal(err)
			}
			want := float64(tc.components) * dur.Seconds()
			for c, cs := range s.lanes[0].clients {
				if d := math.Abs(float64(cs.requests) - want); d > 5*math.Sqrt(want) {
					t.Errorf("client %d made %d requests, want %.0f ± %.0f", c, cs.requests, want, 5*math.Sqrt(want))
				}
			}
		})
	}
}
