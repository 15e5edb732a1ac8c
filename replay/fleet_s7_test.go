package replay

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// TestSyncAtAnInstantComesAfterItsLines: a synced limit syncs at every
// multiple of its interval after the origin, each sync after the lines at
// its instant (syncs, fleet.go; in a run the sync is scheduled an interval
// ahead and ties go by insertion order). One key, 1 per 10s in fixed
// windows, two replicas round robin, a sync every second: replica 0 admits
// the line at 0; replica 1's line at exactly 1s still sees the store before
// the sync of 1s (empty) and is admitted; at 1.001s it sees replica 0's
// admission, pulled at that sync, and is refused.
func TestSyncAtAnInstantComesAfterItsLines(t *testing.T) {
	l := mustLimit(t, "key=ip limit=1/10s")
	fleet := Fleet{Replicas: 2, Place: Place{State: sim.StateSynced, SyncInterval: time.Second}}
	for _, tc := range []struct {
		second  int
		refused int64
	}{{1000, 0}, {1001, 1}, {999, 0}} {
		log := jsonLog([][2]any{{0, "198.51.100.7"}, {tc.second, "198.51.100.7"}})
		res := replayLog(t, log, Options{Limits: []Limit{l}, Lanes: []string{"fixed_window"}, Fleet: fleet})
		if got := res.Limits[0].Lanes[0].Refused; got != tc.refused {
			t.Errorf("second line at %dms: %d refused, want %d", tc.second, got, tc.refused)
		}
	}
}
