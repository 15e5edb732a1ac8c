package sim

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestMaxEventsStopsAtTheBudget runs a world once to count its events, then again
// with budgets around that count: the run finishes at the count and stops below it.
func TestMaxEventsStopsAtTheBudget(t *testing.T) {
	cfg := Config{
		Duration: 2 * time.Second, Seed: 1,
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 3, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{20, time.Second}}},
			Retry: Retry{Kind: RetryFixed, Delay: 100 * time.Millisecond, MaxAttempts: 3}}},
	}
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RunToEnd(context.Background()); err != nil {
		t.Fatal(err)
	}
	real := s.Events()
	tests := []struct {
		budget int64
		stop   bool
	}{{real, false}, {real + 1, false}, {real - 1, true}, {1, true}}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, tc := range tests {
		// Lanes one after the other, then at once: either way the budget is exact.
		for _, procs := range []int{1, 4} {
			for _, live := range []bool{false, true} {
				runtime.GOMAXPROCS(procs)
				s, err := New(cfg, Options{MaxEvents: tc.budget})
				if err != nil {
					t.Fatal(err)
				}
				if live {
					err = s.RunUntil(s.End())
				} else {
					_, err = s.RunToEnd(context.Background())
				}
				var be *BudgetError
				if errors.As(err, &be) != tc.stop {
					t.Errorf("budget %d of %d events (GOMAXPROCS %d, live %v): error %v, want stopped=%v", tc.budget, real, procs, live, err, tc.stop)
				}
				if tc.stop && (s.Events() != tc.budget || be.Budget != tc.budget || !strings.Contains(err.Error(), "stopped after the budget of")) {
					t.Errorf("budget %d (GOMAXPROCS %d): processed %d events, error %q", tc.budget, procs, s.Events(), err)
				}
			}
		}
	}
}
