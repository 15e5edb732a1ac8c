package conform

import (
	"errors"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

const ms = time.Millisecond

func admitAt(at time.Duration) Attempt { return Attempt{At: at, Admitted: true} }
func refuseAt(at, ra time.Duration) Attempt {
	return Attempt{At: at, RetryAfter: ra}
}
func admitted(now time.Duration) Answer { return Answer{Now: now, Admitted: true} }
func refused(now, ra time.Duration) Answer {
	return Answer{Now: now, RetryAfter: ra}
}

// TestCompareTolerance walks the tolerance rule: verdicts that differ are
// within it only when the refusing side would admit within it; refusals agree
// when their retry instants are within it of each other.
func TestCompareTolerance(t *testing.T) {
	const tol = 10 * ms
	tests := []struct {
		name  string
		exact Attempt
		real  Answer
		want  Outcome
	}{
		{"both admit", admitAt(0), admitted(3 * ms), Agreed},
		{"same retry instant, later decision", refuseAt(100*ms, 50*ms), refused(105*ms, 45*ms), Agreed},
		{"retry instants tol apart", refuseAt(100*ms, 50*ms), refused(100*ms, 60*ms), Agreed},
		{"retry instants tol+1ns apart", refuseAt(100*ms, 50*ms), refused(100*ms, 60*ms+1), RetryAfterDiffered},
		{"both never", refuseAt(0, algorithms.Never), refused(0, algorithms.Never), Agreed},
		{"never against a wait", refuseAt(0, algorithms.Never), refused(0, ms), RetryAfterDiffered},
		{"redis refuses for tol", admitAt(0), refused(0, tol), DifferedWithin},
		{"redis refuses for tol+1ns", admitAt(0), refused(0, tol+1), Differed},
		{"exact refused for tol", refuseAt(0, tol), admitted(0), DifferedWithin},
		{"exact refused for longer", refuseAt(0, 2*tol), admitted(0), Differed},
		{"exact refused for ever", refuseAt(0, algorithms.Never), admitted(0), Differed},
		{"store error", admitAt(0), Answer{Err: errors.New("down")}, StoreError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compare(tt.exact, tt.real, tol); got != tt.want {
				t.Errorf("compare(%+v, %+v, %v) = %d, want %d", tt.exact, tt.real, tol, got, tt.want)
			}
		})
	}
}

// TestFleetPeak counts the most cost in any half-open window per key.
func TestFleetPeak(t *testing.T) {
	list := []Attempt{
		{At: 0, Key: "a", Cost: 1}, {At: 500 * ms, Key: "a", Cost: 2}, {At: 1000 * ms, Key: "a", Cost: 1},
		{At: 1400 * ms, Key: "a", Cost: 1}, {At: 10 * ms, Key: "b", Cost: 3},
	}
	// [0, 1s) holds 3 for a; [500ms, 1.5s) holds 4; b alone 3.
	if p := fleetPeak(list, 2, time.Second); p.Count != 4 || p.Ratio != 2 {
		t.Errorf("fleetPeak = %+v, want count 4, ratio 2", p)
	}
}
