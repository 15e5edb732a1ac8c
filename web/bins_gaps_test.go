package web

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// The sample of a column is its first attempt of the mark asked for, for every
// column held up to the newest written (its last column, the one the page is
// drawing), and none for a column not yet written, one past the newest, an
// older column with no attempt of that mark, or a column the ring has wrapped
// over.
func TestBinsSampleUpToTheNewestColumn(t *testing.T) {
	const width = time.Millisecond
	b := newBins(width, []sim.LaneKind{sim.LaneTokenBucket})
	rec := func(at time.Duration, ev sim.TraceEvent, req int64) {
		t.Helper()
		if err := b.Record(&sim.TraceRecord{Lane: sim.LaneTokenBucket, At: at, Event: ev, Request: req}); err != nil {
			t.Fatal(err)
		}
	}
	admit, refuse := markOf(sim.TraceAdmit), markOf(sim.TraceRefuse)
	if r, ok := b.sample(0, 0, admit); ok {
		t.Fatalf("nothing recorded: sample(0, 0) = %+v, want none", r)
	}
	rec(2*width+time.Microsecond, sim.TraceAdmit, 1)
	rec(2*width+2*time.Microsecond, sim.TraceAdmit, 2) // not the first: not the sample
	rec(5*width, sim.TraceRefuse, 3)                   // the newest column, 5
	for _, tc := range []struct {
		k    int64
		mark int
		req  int64 // 0: none
	}{
		{2, admit, 1}, {2, refuse, 0}, {3, admit, 0}, {5, refuse, 3}, {5, admit, 0}, {6, refuse, 0},
	} {
		r, ok := b.sample(0, tc.k, tc.mark)
		switch {
		case tc.req == 0 && ok:
			t.Errorf("sample(column %d, mark %d) = request %d, want none", tc.k, tc.mark, r.Request)
		case tc.req != 0 && (!ok || r.Request != tc.req):
			t.Errorf("sample(column %d, mark %d) = request %d, %v; want request %d", tc.k, tc.mark, r.Request, ok, tc.req)
		}
	}
	for _, tc := range []struct{ lane, mark int }{{-1, admit}, {1, admit}, {0, -1}, {0, markKinds}} {
		if _, ok := b.sample(tc.lane, 5, tc.mark); ok {
			t.Errorf("sample(lane %d, column 5, mark %d): given, want none", tc.lane, tc.mark)
		}
	}
	// Past the ring: column 2 is forgotten, the newest is still sampled.
	far := int64(2 + binSlices)
	rec(time.Duration(far)*width, sim.TraceAdmit, 4)
	if _, ok := b.sample(0, 2, admit); ok {
		t.Errorf("column 2 after the ring moved to %d: sampled, want none", far)
	}
	if r, ok := b.sample(0, far, admit); !ok || r.Request != 4 {
		t.Errorf("newest column %d: sample request %d, %v; want 4", far, r.Request, ok)
	}
}
