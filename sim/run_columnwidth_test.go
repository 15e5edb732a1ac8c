package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// A live view's column is a round tenth of the first limit's window.
func TestColumnWidth(t *testing.T) {
	for _, tc := range []struct {
		window, want time.Duration
	}{
		{0, 100 * time.Millisecond}, // no window: as for 1s
		{time.Second, 100 * time.Millisecond},
		{time.Minute, 5 * time.Second},
		{3 * time.Second, 200 * time.Millisecond},
		{15 * time.Second, time.Second},
		{5 * time.Millisecond, time.Millisecond}, // at least 1ms
	} {
		cfg := Config{Limits: []Limit{{Policy: algorithms.Policy{Window: tc.window}}}}
		if got := ColumnWidth(cfg); got != tc.want {
			t.Errorf("window %v: column %v, want %v", tc.window, got, tc.want)
		}
	}
}
