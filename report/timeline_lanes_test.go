package report

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Every lane a Config may run has its row in the timeline, the last one too,
// and a record of no lane is left out.
func TestTimelineKeepsEveryLane(t *testing.T) {
	tl := &Timeline{End: time.Second, TickCap: 10}
	for i := range sim.MaxLanes + 1 {
		if err := tl.Record(&sim.TraceRecord{At: 100 * time.Millisecond, LaneIndex: i, Event: sim.TraceAdmit}); err != nil {
			t.Fatal(err)
		}
	}
	for i := range sim.MaxLanes {
		if ticks, _ := tl.Ticks(i); len(ticks) != 1 {
			t.Errorf("lane %d: an admission recorded, %d ticks kept; want 1", i, len(ticks))
		}
	}
	if ticks, ok := tl.Ticks(sim.MaxLanes); ok || ticks != nil {
		t.Errorf("lane %d, past sim.MaxLanes: %d ticks kept; want none", sim.MaxLanes, len(ticks))
	}
}
