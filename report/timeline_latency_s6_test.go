package report

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// TestTimelineLatencyLongestIsTheMaximum records three completed requests in
// one column (latencies 10, 30 and 20 ms) and one in another: Latency gives,
// per column, the mean and the longest of them, zero where none completed.
func TestTimelineLatencyLongestIsTheMaximum(t *testing.T) {
	tl := &Timeline{End: TimelineColumns * time.Millisecond, TickCap: 10} // 1 ms a column
	rec := func(at, latency time.Duration) {
		t.Helper()
		if err := tl.Record(&sim.TraceRecord{LaneIndex: 0, At: at, Event: sim.TraceSuccess, Latency: latency}); err != nil {
			t.Fatal(err)
		}
	}
	const col = 3
	for _, l := range []time.Duration{10 * time.Millisecond, 30 * time.Millisecond, 20 * time.Millisecond} {
		rec(col*time.Millisecond+100*time.Microsecond, l)
	}
	rec(7*time.Millisecond, 4*time.Millisecond)
	mean, longest := tl.Latency(0)
	if len(mean) != TimelineColumns || len(longest) != TimelineColumns {
		t.Fatalf("Latency(0) lengths = %d, %d, want %d", len(mean), len(longest), TimelineColumns)
	}
	if mean[col] != 20*time.Millisecond || longest[col] != 30*time.Millisecond {
		t.Errorf("column %d: mean, longest = %v, %v, want 20ms, 30ms", col, mean[col], longest[col])
	}
	if mean[7] != 4*time.Millisecond || longest[7] != 4*time.Millisecond {
		t.Errorf("column 7: mean, longest = %v, %v, want 4ms, 4ms", mean[7], longest[7])
	}
	if mean[0] != 0 || longest[0] != 0 {
		t.Errorf("column 0 (nothing completed): mean, longest = %v, %v, want 0, 0", mean[0], longest[0])
	}
}
