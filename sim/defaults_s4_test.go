package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestDefaultBucketRounding_s4: the default bucket is a 200th of the duration
// to the nearest millisecond, then moved to the nearest whole number of
// windows (a long target) or the nearest whole fraction of the window that
// divides it (a short one).
func TestDefaultBucketRounding_s4(t *testing.T) {
	window := []Limit{{Policy: algorithms.Policy{Window: time.Second}}}
	for _, tc := range []struct {
		d      time.Duration
		limits []Limit
		want   time.Duration
	}{
		{100 * time.Millisecond, nil, time.Millisecond},                                    // at least 1ms
		{100_100 * time.Millisecond, nil, 501 * time.Millisecond},                          // 500.5ms rounds up
		{100_099 * time.Millisecond, nil, 500 * time.Millisecond},                          // 500.495ms rounds down
		{280 * time.Second, window, time.Second},                                           // 1.4 windows: 1
		{300 * time.Second, window, 2 * time.Second},                                       // 1.5 windows: 2
		{320 * time.Second, window, 2 * time.Second},                                       // 1.6 windows: 2, not 1
		{500 * time.Second, window, 3 * time.Second},                                       // 2.5 windows: 3
		{50 * time.Second, window, 250 * time.Millisecond},                                 // 4 to the window
		{80 * time.Second, window, 500 * time.Millisecond},                                 // 400ms: 2.5 to the window, 2 nearest dividing
		{120 * time.Second, window, 500 * time.Millisecond},                                // 600ms: 1.67 to the window rounds to 2
		{140 * time.Second, window, time.Second},                                           // 700ms: 1.43 to the window rounds to 1
		{60 * time.Second, []Limit{{Policy: algorithms.Policy{}}}, 300 * time.Millisecond}, // no window
	} {
		if got := defaultBucket(tc.d, tc.limits); got != tc.want {
			t.Errorf("defaultBucket(%v, window %v) = %v, want %v", tc.d, len(tc.limits) > 0 && tc.limits[0].Policy.Window > 0, got, tc.want)
		}
	}
}

// TestLimitedNothingEachCount_s4: any refusal, shed, delay or drop, or an
// attempt not admitted, means the lane limited something.
func TestLimitedNothingEachCount_s4(t *testing.T) {
	for _, tc := range []struct {
		name                                                string
		attempts, admitted, refused, shed, delayed, dropped int64
		want                                                bool
	}{
		{"all through", 10, 10, 0, 0, 0, 0, true},
		{"no attempts", 0, 0, 0, 0, 0, 0, false},
		{"one not admitted", 10, 9, 0, 0, 0, 0, false},
		{"refused", 10, 10, 1, 0, 0, 0, false},
		{"shed", 10, 10, 0, 1, 0, 0, false},
		{"delayed only", 10, 10, 0, 0, 1, 0, false},
		{"dropped", 10, 10, 0, 0, 0, 1, false},
	} {
		l := LaneResult{Attempts: tc.attempts, Admitted: tc.admitted, Refused: tc.refused, Shed: tc.shed, Delayed: tc.delayed, Dropped: tc.dropped}
		if got := l.LimitedNothing(); got != tc.want {
			t.Errorf("%s: LimitedNothing() = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestArrivalWithinDuration_s4: an arrival starts before the scenario's end
// (at it is refused) and stops no later than it (at it is accepted).
func TestArrivalWithinDuration_s4(t *testing.T) {
	const d = 2 * time.Second
	for _, tc := range []struct {
		name      string
		a         Arrival
		duration  time.Duration
		wantField string // "" for no error
	}{
		{"start at the end", Arrival{Start: d}, d, "a.start"},
		{"start a ns before the end", Arrival{Start: d - 1}, d, ""},
		{"stop at the end", Arrival{Start: time.Second, Stop: d}, d, ""},
		{"stop a ns past the end", Arrival{Start: time.Second, Stop: d + 1}, d, "a.stop"},
		{"no duration to hold to", Arrival{Start: d, Stop: 2 * d}, 0, ""},
	} {
		var ck checker
		checkArrival(&ck, "a", tc.a, tc.duration)
		var fields []string
		for _, e := range ck.errs {
			if e.Field == "a.start" || e.Field == "a.stop" { // the kind's own checks aside
				fields = append(fields, e.Field)
			}
		}
		if got := strings.Join(fields, ","); got != tc.wantField {
			t.Errorf("%s: errors at %q, want %q (%v)", tc.name, got, tc.wantField, ck.errs)
		}
	}
}
