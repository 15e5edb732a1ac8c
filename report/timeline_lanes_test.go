package report

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Every lane of the registry has its row in the timeline, the last one too: no
// table sized by a lane constant drops a lane added after it.
func TestTimelineKeepsEveryLane(t *testing.T) {
	for _, l := range sim.Lanes() {
		tl := &Timeline{End: time.Second, TickCap: 10}
		if err := tl.Record(&sim.TraceRecord{At: 100 * time.Millisecond, Lane: l.Kind, Event: sim.TraceAdmit}); err != nil {
			t.Fatal(err)
		}
		if ticks, _ := tl.Ticks(l.Kind); len(ticks) != 1 {
			t.Errorf("%s: an admission recorded, %d ticks kept; want 1", l.Name, len(ticks))
		}
	}
}
