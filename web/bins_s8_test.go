package web

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// The newest column a frame sends is the greatest recorded, even when a
// record comes in behind it (sim sends each lane's in time order; bins does
// not rely on it): a frame from the earliest changed column to the newest,
// and the newest's sample still given.
func TestBinsKeepTheNewestColumn(t *testing.T) {
	lane, _ := sim.ParseLane("token_bucket")
	b := newBins(time.Second, []sim.LaneKind{lane})
	rec := func(at time.Duration, ev sim.TraceEvent) {
		b.Record(&sim.TraceRecord{At: at, Event: ev})
	}
	rec(5*time.Second+1, sim.TraceAdmit)
	rec(3*time.Second, sim.TraceRefuse)
	cols := b.flush(0)
	if len(cols) != 3 || cols[0].I != 3 || cols[2].I != 5 {
		t.Fatalf("flush = %+v, want columns 3 to 5", cols)
	}
	admit, refuse := int(sim.MarkAdmitted), int(sim.MarkRefused)
	if cols[2].N[admit] != 1 || cols[0].N[refuse] != 1 || cols[1].N != ([markKinds]int64{}) {
		t.Errorf("counts %+v", cols)
	}
	if r, ok := b.sample(0, 5, admit); !ok || r.At != 5*time.Second+1 {
		t.Errorf("sample of column 5: %+v, %v", r, ok)
	}
	if _, ok := b.sample(0, 6, admit); ok {
		t.Error("a column past the newest has no sample")
	}
	if cols := b.flush(0); len(cols) != 0 {
		t.Errorf("a second flush with nothing new: %+v", cols)
	}
}
