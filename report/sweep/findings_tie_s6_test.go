package sweep

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Of lanes tied at the highest mean, the finding names the first in lane
// order: here token bucket, listed before fixed window at the same success
// rate (90%) and the same peak (1.20), with sliding log lowest on both.
func TestSweepFindingsTiedHighestNamesFirstLane(t *testing.T) {
	lane := func(k sim.LaneKind, ok, peak int64) sim.LaneResult {
		return sim.LaneResult{Lane: k, Name: k.String(), Unique: 10, Attempts: 10, Succeeded: ok,
			Peak:    sim.WindowPeak{Count: peak, Limit: 10, Ratio: float64(peak) / 10},
			Classes: []sim.ClassResult{{Name: "all", Unique: 10, Attempts: 10, Succeeded: ok}}}
	}
	res := &sim.Result{Duration: time.Second, Lanes: []sim.LaneResult{
		lane(sim.LaneSlidingLog, 5, 10), lane(sim.LaneTokenBucket, 9, 12), lane(sim.LaneFixedWindow, 9, 12)}}
	got := sweepOf([]*sim.Result{res}).Findings()
	if len(got) != 2 {
		t.Fatalf("findings = %q, want the all-clients line and the peak", got)
	}
	for i, want := range []string{
		"all clients: success: token bucket kept success at 90.0%, ",
		"most admitted in any window vs limit: token bucket peaked at 1.20, ",
	} {
		if !strings.HasPrefix(got[i], want) {
			t.Errorf("finding %d = %q, want it to begin %q (the first of the tied lanes)", i, got[i], want)
		}
		if strings.Contains(got[i], "fixed window") {
			t.Errorf("finding %d = %q names fixed window, tied with token bucket but listed after it", i, got[i])
		}
	}
}
