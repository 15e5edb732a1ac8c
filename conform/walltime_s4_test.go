package conform

import (
	"math"
	"testing"
	"time"
)

// TestWallTimeCountsRacesTwice_s4: the estimate is the lanes once plus every
// race run twice (atomic and racy), each as long as the last attempt's instant
// over the time scale.
func TestWallTimeCountsRacesTwice_s4(t *testing.T) {
	traffic := []LaneTraffic{
		{Attempts: []Attempt{{At: time.Second}, {At: 6 * time.Second}}},
		{Attempts: []Attempt{{At: 10 * time.Second}}},
		{},
	}
	for _, tc := range []struct {
		runs     int
		replicas []int
		scale    float64
		want     time.Duration
	}{
		{1, nil, 1, 10 * time.Second},                  // no races: the lanes only
		{1, []int{2}, 1, 30 * time.Second},             // 1 + 2×1×1 rounds
		{3, []int{2}, 1, 70 * time.Second},             // 1 + 2×3×1
		{3, []int{2, 4}, 1, 130 * time.Second},         // 1 + 2×3×2
		{3, []int{2}, 10, 7 * time.Second},             // over the time scale
		{1000, []int{1, 2, 3}, 1, 60010 * time.Second}, // 1 + 2×1000×3
	} {
		opts := &Flags{Runs: tc.runs, Replicas: tc.replicas, Scale: tc.scale}
		if got := wallTime(traffic, opts); got != tc.want {
			t.Errorf("wallTime(last 10s, runs %d, replicas %v, scale %v) = %v, want %v", tc.runs, tc.replicas, tc.scale, got, tc.want)
		}
	}
	long := []LaneTraffic{{Attempts: []Attempt{{At: math.MaxInt64 / 2}}}}
	if got := wallTime(long, &Flags{Runs: 1, Replicas: []int{1}, Scale: 1}); got != math.MaxInt64 {
		t.Errorf("wallTime(past int64) = %v, want the largest duration", got)
	}
}
