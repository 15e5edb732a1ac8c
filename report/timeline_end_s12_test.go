package report

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// timelineEnds are ends of both kinds: a multiple of TimelineColumns (where
// End/ColumnWidth is exactly TimelineColumns, one past the last column), ends
// that are not, and one shorter than TimelineColumns nanoseconds (width 1).
var timelineEnds = []time.Duration{
	TimelineColumns * 10, 10 * time.Second, 2 * time.Second,
	TimelineColumns*10 + 1, TimelineColumns*10 + TimelineColumns/2, 3*time.Second + 7,
	TimelineColumns / 4,
}

// TestTimelineRecordAtOrAfterEndFallsInTheLastColumn: Timeline's doc says
// records at or after End fall in the last column; one just before End is in
// the column ColumnWidth puts it in (the last, or the one before when End is a
// multiple of TimelineColumns, never past the last).
func TestTimelineRecordAtOrAfterEndFallsInTheLastColumn(t *testing.T) {
	last := TimelineColumns - 1
	for _, end := range timelineEnds {
		tl := &Timeline{End: end}
		w := tl.ColumnWidth()
		for _, at := range []time.Duration{end, end + 1, end + w, 2 * end} {
			if got := tl.column(at); got != last {
				t.Errorf("End %d: column(%d) = %d, want the last column %d", end, at, got, last)
			}
		}
		if got, want := tl.column(end-1), min(int((end-1)/w), last); got != want {
			t.Errorf("End %d: column(End-1) = %d, want %d (width %d)", end, got, want, w)
		}
	}
}

// TestTimelineColumnsCountARecordAtEndInTheLastColumn: through Record and
// Columns, an attempt exactly at End and one after it are both counted in the
// last column, and nowhere else.
func TestTimelineColumnsCountARecordAtEndInTheLastColumn(t *testing.T) {
	for _, end := range timelineEnds {
		tl := &Timeline{End: end, TickCap: 10}
		for _, at := range []time.Duration{end, end + tl.ColumnWidth()} {
			if err := tl.Record(&sim.TraceRecord{At: at, LaneIndex: 0, Event: sim.TraceAdmit}); err != nil {
				t.Fatal(err)
			}
		}
		cols := tl.Columns(0)
		if len(cols) != TimelineColumns {
			t.Fatalf("End %d: %d columns, want %d", end, len(cols), TimelineColumns)
		}
		for i, c := range cols {
			want := int64(0)
			if i == TimelineColumns-1 {
				want = 2
			}
			if c.Admitted != want {
				t.Errorf("End %d: column %d counts %d admitted, want %d", end, i, c.Admitted, want)
			}
		}
	}
}
