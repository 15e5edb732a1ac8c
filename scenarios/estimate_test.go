package scenarios

import (
	"context"
	"testing"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/sim"
)

// TestEstimateEventsWithinTwiceTheRealCount runs every built-in and compares the
// events it really processed with the estimate the budget is checked against.
func TestEstimateEventsWithinTwiceTheRealCount(t *testing.T) {
	for _, b := range Builtins() {
		t.Run(b.Name, func(t *testing.T) {
			s, err := LoadBuiltin(b.Name)
			if err != nil {
				t.Fatal(err)
			}
			var real, est int64
			if s.Contention != nil {
				r, err := contention.Run(context.Background(), *s.Contention)
				if err != nil {
					t.Fatal(err)
				}
				real, est = r.Events, s.Contention.EstimateEvents()
			} else {
				run, err := sim.New(*s.Config, sim.Options{})
				if err != nil {
					t.Fatal(err)
				}
				if _, err := run.RunToEnd(context.Background()); err != nil {
					t.Fatal(err)
				}
				real, est = run.Events(), s.Config.EstimateEvents()
			}
			t.Logf("real %d, estimate %d, ratio %.2f", real, est, float64(est)/float64(real))
			if est > 2*real || real > 2*est {
				t.Errorf("estimate %d events, real %d: not within 2×", est, real)
			}
		})
	}
}
