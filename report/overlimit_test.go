package report

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Each lane's over-the-limit finding states its own window and its own limit
// (a variant's override, a pushed rule), and lanes are grouped only when both
// are the same.
func TestOverLimitFindingStatesEachLanesWindowAndLimit(t *testing.T) {
	lane := func(name string, count, limit int64, window time.Duration) sim.LaneResult {
		return sim.LaneResult{Lane: sim.LaneTokenBucket, Name: name, Attempts: 40, Admitted: 30, Refused: 10,
			Peak: sim.WindowPeak{Count: count, Limit: limit, Start: time.Second, End: time.Second + window, Ratio: float64(count) / float64(limit)}}
	}
	r := sim.Result{Limits: oneLimit(), Lanes: []sim.LaneResult{
		lane("tb_a", 30, 10, time.Second), lane("tb_b", 30, 20, time.Second), lane("tb_c", 30, 10, 2*time.Second)}}
	got := strings.Join(overLimit(r), "\n")
	for _, want := range []string{
		"tb_a admitted 30 in the 1s window from t=1s: 3× the limit of 10",
		"tb_c admitted 30 in the 2s window from t=1s: 3× the limit of 10",
		"tb_b admitted 30 in the 1s window from t=1s: 1.5× the limit of 20",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("findings lack %q:\n%s", want, got)
		}
	}
}

// The peak plot holds each bar to its own limit: one limit line when every
// lane's busiest window is held to the same limit (the chain's, or a pushed
// one), else each bar's limit across its slot, and the caption says so.
func TestPeakPlotHoldsEachBarToItsLimit(t *testing.T) {
	lane := func(count, limit int64) sim.LaneResult {
		return sim.LaneResult{Lane: sim.LaneSlidingLog, Attempts: 40, Admitted: 30, Refused: 10,
			Peak: sim.WindowPeak{Count: count, Limit: limit, Start: time.Second, End: 2 * time.Second}}
	}
	for _, tc := range []struct {
		limits  []int64
		one     bool
		caption string
	}{
		{[]int64{16, 16}, true, "A bar above the limit line"},
		{[]int64{16, 10}, false, "held to different limits"},
		{[]int64{0, 10}, true, "A bar above the limit line"}, // no peak limit: the chain's (10)
	} {
		r := sim.Result{Limits: oneLimit(), Lanes: []sim.LaneResult{lane(16, tc.limits[0]), lane(16, tc.limits[1])}}
		limits, one := peakLimits(r, 10)
		want0 := tc.limits[0]
		if want0 == 0 {
			want0 = 10
		}
		if one != tc.one || limits[0] != want0 || limits[1] != tc.limits[1] {
			t.Errorf("limits %v: peakLimits = %v, %v", tc.limits, limits, one)
		}
		if f := PeakFigure(r); !strings.Contains(f.Caption, tc.caption) {
			t.Errorf("limits %v: caption %q, want %q", tc.limits, f.Caption, tc.caption)
		}
	}
}
