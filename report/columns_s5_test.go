package report

import (
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// A column holds the times [k·ColumnWidth, (k+1)·ColumnWidth): column and
// ColumnWidth must agree, also when End is not a multiple of TimelineColumns.
func TestTimelineColumnAgreesWithColumnWidth(t *testing.T) {
	for _, end := range []time.Duration{TimelineColumns*10 + 1, TimelineColumns*10 + TimelineColumns/2, 3*time.Second + 7} {
		tl := &Timeline{End: end}
		w := tl.ColumnWidth()
		for _, at := range []time.Duration{1, w - 1, w, 5*w + 3, end / 2, end - 1} {
			want := min(int(at/w), TimelineColumns-1)
			if got := tl.column(at); got != want {
				t.Errorf("End %d: column(%d) = %d, want %d (width %d)", end, at, got, want, w)
			}
		}
	}
}

// A limit that fell back to local decisions while its store was down is a
// decision taken while unavailable: the fleet table shows the outage columns.
func TestFleetTableCountsFellBackAsUnavailable(t *testing.T) {
	for _, u := range []sim.StoreCounts{{Local: 2}, {Open: 1}, {Closed: 1}} {
		r := sim.Result{Lanes: []sim.LaneResult{{Topology: &sim.TopologyResult{Replicas: 2,
			Limits: []sim.LimitTopology{{Limit: "l", Unavailable: u}}}}}}
		if tb := fleetTable(r); !slices.Contains(tb.Head, "fell back") {
			t.Errorf("unavailable %+v: head %q, want the outage columns", u, tb.Head)
		}
	}
	r := sim.Result{Lanes: []sim.LaneResult{{Topology: &sim.TopologyResult{Replicas: 2,
		Limits: []sim.LimitTopology{{Limit: "l"}}}}}}
	if tb := fleetTable(r); slices.Contains(tb.Head, "fell back") {
		t.Errorf("no outage: head %q, want no outage columns", tb.Head)
	}
}

// The time axes span every bucket, a last part-filled one included.
func TestBucketsCountsAPartFilledLast(t *testing.T) {
	for _, tc := range []struct {
		dur, bucket time.Duration
		want        int
	}{{2500 * time.Millisecond, time.Second, 3}, {3 * time.Second, time.Second, 3}, {time.Second + 1, time.Second, 2}} {
		if got := buckets(sim.Result{Duration: tc.dur, Bucket: tc.bucket}); got != tc.want {
			t.Errorf("buckets(duration %v, bucket %v) = %d, want %d", tc.dur, tc.bucket, got, tc.want)
		}
	}
}
