package window

import (
	"testing"
	"time"
)

// Percentiles are the nearest-rank 50th, 90th and 99th percentiles, the
// exact maximum and the mean (truncated to the ns), checked on values the
// histogram holds exactly (below 128ns): 1ns..100ns once each, shuffled.
func TestPercentilesOfExactValues(t *testing.T) {
	h := NewHistogram()
	if p := h.Percentiles(); p != (Percentiles{}) {
		t.Errorf("empty: %+v, want zeros", p)
	}
	for i := range 100 {
		h.Add(time.Duration((i*37)%100 + 1))
	}
	want := Percentiles{Count: 100, P50: 50, P90: 90, P99: 99, Max: 100, Mean: 50}
	if p := h.Percentiles(); p != want {
		t.Errorf("1..100ns: %+v, want %+v", p, want)
	}
	h.Add(1000) // one more: ranks move up by one at 90% and 99%
	want = Percentiles{Count: 101, P50: 51, P90: 91, P99: 100, Max: 1000, Mean: 6050 / 101}
	if p := h.Percentiles(); p != want {
		t.Errorf("1..100ns and 1µs: %+v, want %+v", p, want)
	}
}
