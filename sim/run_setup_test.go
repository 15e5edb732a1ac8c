package sim

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// cancelAfter is a context that turns cancelled after its Err has answered nil
// checks times: a Ctrl-C that arrives in the middle of the setup.
type cancelAfter struct {
	context.Context
	checks int
	asked  int
}

func (c *cancelAfter) Err() error {
	c.asked++
	if c.asked > c.checks {
		return context.Canceled
	}
	return nil
}

func TestSetupOfALargePopulationStopsWhenCancelled(t *testing.T) {
	clients := 4 * setupCheckEvery
	cfg := Config{Duration: time.Second, Lanes: []LaneKind{LaneTokenBucket, LaneGCRA},
		Limits:  []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Clients: []ClientGroup{{Name: "many", Count: clients, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 1}}}}}
	for _, tc := range []struct {
		name   string
		checks int // how many looks at the context find it live
	}{
		{"during the population", 2},
		{"during the first lane's clients", 4 + 2},
		{"during the first lane's arrivals", 4 + 4 + 2},
		{"during the second lane", 4 + 8 + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := &cancelAfter{Context: context.Background(), checks: tc.checks}
			s, err := NewContext(ctx, cfg, Options{})
			if !errors.Is(err, context.Canceled) || s != nil {
				t.Fatalf("NewContext = %v, %v; want context.Canceled", s, err)
			}
			if ctx.asked != tc.checks+1 {
				t.Errorf("the context was asked %d times, want %d: setup went on after the cancellation or stopped before it",
					ctx.asked, tc.checks+1)
			}
		})
	}
	if _, err := NewContext(context.Background(), cfg, Options{}); err != nil {
		t.Fatalf("NewContext without a cancellation: %v", err)
	}
}
