package sim

import (
	"context"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Round trips, deadlines, retry budgets and CoDel change how many events a
// run takes: the estimate stays within 2× of the real count.
func TestEstimateCoversTimeFeatures(t *testing.T) {
	limit := []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 5, Window: time.Second}}}
	poisson := []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 20, Per: time.Second}}}
	for _, tt := range []struct {
		name string
		grp  ClientGroup
		be   *Backend
	}{
		{"a loop over a round trip", ClientGroup{Count: 3, RTT: 40 * time.Millisecond, Arrivals: poisson, Retry: Retry{Kind: RetryImmediate}}, nil},
		{"a round trip, no retries", ClientGroup{Count: 3, RTT: 40 * time.Millisecond, Arrivals: poisson}, nil},
		{"a loop with a deadline", ClientGroup{Count: 3, RTT: 10 * time.Millisecond, Deadline: 500 * time.Millisecond, Arrivals: poisson, Retry: Retry{Kind: RetryImmediate}}, nil},
		{"a loop held by a budget", ClientGroup{Count: 3, RTT: 40 * time.Millisecond, Arrivals: poisson,
			Retry: Retry{Kind: RetryImmediate, Budget: &RetryBudget{Ratio: 0.1, MinPerSecond: 1}}}, nil},
		{"fixed retries into CoDel", ClientGroup{Count: 3, Arrivals: poisson, Retry: Retry{Kind: RetryFixed, Delay: 100 * time.Millisecond, MaxAttempts: 4}},
			&Backend{Capacity: 1, QueueSize: 50, Service: Service{Mean: 40 * time.Millisecond}, Discipline: QueueLIFO, CoDel: &CoDel{}}},
	} {
		cfg := Config{Duration: 10 * time.Second, Lanes: []LaneKind{LaneGCRA, LaneFixedWindow}, Limits: limit,
			Clients: []ClientGroup{tt.grp}, Backend: tt.be}
		s, err := New(cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.RunToEnd(context.Background()); err != nil {
			t.Fatal(err)
		}
		est, real := cfg.EstimateEvents(), s.Events()
		if est > 2*real || real > 2*est {
			t.Errorf("%s: EstimateEvents() = %d, the run processed %d", tt.name, est, real)
		}
	}
}

// A backend of one 10ms server takes 100 requests a second, but the clients'
// requests take 20 times as long: it takes 5 of their 60, and the rest retry
// up to 10 times. The estimate counts the slow service, not the backend's.
func TestEstimateCountsTheServiceFactor(t *testing.T) {
	cfg := Config{Duration: 10 * time.Second, Lanes: []LaneKind{LaneGCRA},
		Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 3, ServiceFactor: 20, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 20, Per: time.Second}}},
			Retry: Retry{Kind: RetryFixed, Delay: 20 * time.Millisecond, MaxAttempts: 10}}},
		Backend: &Backend{Capacity: 1, Service: Service{Mean: 10 * time.Millisecond}}}
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RunToEnd(context.Background()); err != nil {
		t.Fatal(err)
	}
	est, real := cfg.EstimateEvents(), s.Events()
	t.Logf("estimate %d, real %d", est, real)
	if est > 2*real || real > 2*est {
		t.Errorf("EstimateEvents() = %d, the run processed %d", est, real)
	}
}

// Clients whose every attempt outlasts their timeout retry up to 5 times:
// each attempt also takes its timeout's event. The estimate counts both.
func TestEstimateCountsTimeouts(t *testing.T) {
	for _, service := range []time.Duration{50 * time.Millisecond, 300 * time.Millisecond} {
		cfg := Config{Duration: 10 * time.Second, Lanes: []LaneKind{LaneGCRA, LaneTokenBucket},
			Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
			Clients: []ClientGroup{{Count: 3, Timeout: 200 * time.Millisecond, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 20, Per: time.Second}}},
				Retry: Retry{Kind: RetryFixed, Delay: 20 * time.Millisecond, MaxAttempts: 5}}},
			Backend: &Backend{Capacity: 100, Service: Service{Mean: service}}}
		s, err := New(cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.RunToEnd(context.Background()); err != nil {
			t.Fatal(err)
		}
		est, real := cfg.EstimateEvents(), s.Events()
		t.Logf("service %v: estimate %d, real %d", service, est, real)
		if est > 2*real || real > 2*est {
			t.Errorf("service %v: EstimateEvents() = %d, the run processed %d", service, est, real)
		}
	}
}
