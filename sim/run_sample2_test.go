package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// RetryAmplification is attempts per unique request (measure_result.go, docs/output.md).
func TestRetryAmplificationIsAttemptsPerRequest(t *testing.T) {
	never := Limit{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1, Window: time.Hour}}
	cfg := Config{Duration: time.Minute, Lanes: []LaneKind{LaneSlidingLog}, Limits: []Limit{never},
		Clients: []ClientGroup{
			{Name: "first", Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 1}}},
			{Name: "fixed", Count: 2, Arrivals: []Arrival{{Kind: ArrivalBurst, At: time.Second, Count: 1}},
				Retry: Retry{Kind: RetryFixed, Delay: 100 * time.Millisecond, MaxAttempts: 4}},
		}}
	l := mustRun(t, cfg, Options{}).Lanes[0]
	// One request admitted at once, two refused on each of their 4 attempts:
	// 9 attempts for 3 requests.
	if l.Unique != 3 || l.Attempts != 9 {
		t.Fatalf("%d requests, %d attempts; want 3 and 9", l.Unique, l.Attempts)
	}
	if l.RetryAmplification != 3 {
		t.Errorf("retry amplification %v, want 3 (9 attempts / 3 requests)", l.RetryAmplification)
	}
}

// defaultBucket is about a 200th of the duration, at least 1ms, fitted to the
// first limit's window.
func TestDefaultBucketIsA200th(t *testing.T) {
	second := []Limit{{Policy: algorithms.Policy{Limit: 10, Window: time.Second}}}
	for _, tc := range []struct {
		d      time.Duration
		limits []Limit
		want   time.Duration
	}{
		{10 * time.Second, nil, 50 * time.Millisecond},
		{time.Minute, nil, 300 * time.Millisecond},
		{100 * time.Millisecond, nil, time.Millisecond},
		{10 * time.Second, second, 50 * time.Millisecond}, // 20 buckets make the window
		{200 * time.Second, second, time.Second},          // one window a bucket
	} {
		if got := defaultBucket(tc.d, tc.limits); got != tc.want {
			t.Errorf("defaultBucket(%v, %d limits) = %v, want %v", tc.d, len(tc.limits), got, tc.want)
		}
	}
}
