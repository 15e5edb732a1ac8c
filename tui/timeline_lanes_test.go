package tui

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Every lane of the registry gets its row in the live view, the last one too.
func TestTimelineKeepsEveryLane(t *testing.T) {
	var kinds []sim.LaneKind
	for _, l := range sim.Lanes() {
		kinds = append(kinds, l.Kind)
	}
	tl := newTimeline(time.Millisecond)
	tl.setLanes(kinds)
	for i, k := range kinds {
		if err := tl.Record(&sim.TraceRecord{At: 0, Lane: k, LaneIndex: i, Event: sim.TraceRefuse}); err != nil {
			t.Fatal(err)
		}
		if got := tl.rows[i].at(0).refused; got != 1 {
			t.Errorf("%v: a refusal recorded, row %d counts %d; want 1", k, i, got)
		}
	}
}
