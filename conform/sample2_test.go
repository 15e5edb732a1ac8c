package conform

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// MaxSkew is the largest |Now − At|, a store clock behind as much as ahead.
func TestMaxSkewBothWays(t *testing.T) {
	tw, err := newTwin(sim.LaneFixedWindow, algorithms.Policy{Limit: 10, Window: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	attempts := []Attempt{{At: time.Second, Key: "k", Cost: 1, Admitted: true}, {At: 2 * time.Second, Key: "k", Cost: 1, Admitted: true}}
	answers := []Answer{{Now: time.Second + 3*time.Millisecond, Admitted: true}, {Now: 2*time.Second - 5*time.Millisecond, Admitted: true}}
	got, _ := tally(tw, attempts, answers, 10*time.Millisecond, 0)
	if got.MaxSkew != 5*time.Millisecond {
		t.Errorf("skews +3ms and −5ms: MaxSkew %v, want 5ms", got.MaxSkew)
	}
}

// The time scale is between 1 and MaxScale, both ends included.
func TestScaleBoundsInclusive(t *testing.T) {
	for _, tc := range []struct {
		scale float64
		ok    bool
	}{{1, true}, {MaxScale, true}, {MaxScale * 1.0001, false}, {0.999, false}} {
		if err := checkReplay(Replay{Clock: ClockScheduled, Scale: tc.scale}); (err == nil) != tc.ok {
			t.Errorf("scale %g: %v, want accepted %v", tc.scale, err, tc.ok)
		}
	}
}
