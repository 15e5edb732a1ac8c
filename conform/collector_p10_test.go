package conform

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// The collector keeps, per lane and in order, each admission and refusal of
// the trace as an Attempt whose every field is the record's: a cost of 0 (the
// default) is 1, a Retry-After only on a refusal; other events are left out.
func TestCollectorKeepsEachDecisionAsTraced(t *testing.T) {
	tb, gcra := sim.LaneTokenBucket, sim.LaneGCRA
	recs := []sim.TraceRecord{
		{At: 3 * time.Millisecond, Lane: tb, Event: sim.TraceAdmit, Key: "k1", Cost: 0, Client: 4, Request: 7, Attempt: 1, RetryAfter: time.Second},
		{At: 5 * time.Millisecond, Lane: tb, Event: sim.TraceRefuse, Key: "k2", Cost: 3, Client: 5, Request: 8, Attempt: 2, RetryAfter: 250 * time.Millisecond},
		{At: 6 * time.Millisecond, Lane: tb, Event: sim.TraceSuccess, Key: "k2"},
		{At: 7 * time.Millisecond, Lane: gcra, Event: sim.TraceRefuse, Key: "k3", Cost: 1, Client: 6, Request: 9, Attempt: 3, RetryAfter: time.Millisecond},
		{At: 8 * time.Millisecond, Lane: gcra, Event: sim.TraceShed, Key: "k3"},
	}
	c := &collector{byLane: map[sim.LaneKind][]Attempt{}}
	for i := range recs {
		if err := c.Record(&recs[i]); err != nil {
			t.Fatal(err)
		}
	}
	want := map[sim.LaneKind][]Attempt{
		tb: {{At: 3 * time.Millisecond, Key: "k1", Cost: 1, Client: 4, Request: 7, Try: 1, Admitted: true},
			{At: 5 * time.Millisecond, Key: "k2", Cost: 3, Client: 5, Request: 8, Try: 2, RetryAfter: 250 * time.Millisecond}},
		gcra: {{At: 7 * time.Millisecond, Key: "k3", Cost: 1, Client: 6, Request: 9, Try: 3, RetryAfter: time.Millisecond}},
	}
	if len(c.byLane) != len(want) {
		t.Fatalf("lanes %v, want %v", c.byLane, want)
	}
	for lane, w := range want {
		got := c.byLane[lane]
		if len(got) != len(w) {
			t.Fatalf("%v: %+v, want %+v", lane, got, w)
		}
		for i := range w {
			if got[i] != w[i] {
				t.Errorf("%v attempt %d: %+v, want %+v", lane, i, got[i], w[i])
			}
		}
	}
}
