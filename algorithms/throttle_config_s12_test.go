package algorithms

import (
	"math"
	"strings"
	"testing"
	"time"
)

// ThrottleConfig's doc: K is ≥ 1 and 0 means 2; Period 0 means 2 minutes;
// Buckets 0 means 24. Only the zero value is "unset": a negative field is a
// mistake, refused, never quietly defaulted.
func TestNewThrottleRefusesNegativeFieldsInsteadOfDefaulting(t *testing.T) {
	cases := []struct {
		name string
		cfg  ThrottleConfig
		want string // in the error
	}{
		{"k -1", ThrottleConfig{K: -1}, "k must"},
		{"k -2 (the default's negative)", ThrottleConfig{K: -2}, "k must"},
		{"k just below 0", ThrottleConfig{K: -math.SmallestNonzeroFloat64}, "k must"},
		{"k -Inf", ThrottleConfig{K: math.Inf(-1)}, "k must"},
		{"k +Inf", ThrottleConfig{K: math.Inf(1)}, "k must"},
		{"k NaN", ThrottleConfig{K: math.NaN()}, "k must"},
		{"k just above 0", ThrottleConfig{K: math.SmallestNonzeroFloat64}, "k must"},
		{"k just below 1", ThrottleConfig{K: 0.999}, "k must"},
		{"period -1ns", ThrottleConfig{Period: -1}, "period"},
		{"period -2m", ThrottleConfig{Period: -2 * time.Minute}, "period"},
		{"buckets -1", ThrottleConfig{Buckets: -1}, "buckets"},
		{"buckets -24", ThrottleConfig{Buckets: -24}, "buckets"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			th, err := NewThrottle(c.cfg)
			if err == nil {
				t.Fatalf("NewThrottle(%+v) = %+v, nil error; want an error naming %q", c.cfg, th, c.want)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("NewThrottle(%+v) error %q does not mention %q", c.cfg, err, c.want)
			}
		})
	}
}

// The other side of the boundary: K = 1 and every zero field are accepted, and
// a zero K judges like K = 2.
func TestNewThrottleZeroKIsTwoAndOneIsAccepted(t *testing.T) {
	for _, k := range []float64{0, 1, 2} {
		if _, err := NewThrottle(ThrottleConfig{K: k}); err != nil {
			t.Errorf("NewThrottle(K: %v) error %v, want none", k, err)
		}
	}
	unset := must(NewThrottle(ThrottleConfig{}))
	var s ThrottleState
	for i := range 10 {
		unset.Answered(&s, time.Duration(i)*ms, false)
	}
	for i := range 3 {
		unset.Answered(&s, time.Duration(10+i)*ms, true)
	}
	// 13 requests, 3 accepts: (13 − 2×3)/(13 + 1) = 1/2 with K = 2.
	if got, want := unset.DropProbability(&s, 20*ms), 7.0/14; math.Abs(got-want) > 1e-12 {
		t.Errorf("K unset, 13 requests 3 accepts: DropProbability = %v, want %v (K = 2)", got, want)
	}
}

// Period 0 and Buckets 0 are 2 minutes in 24 buckets of 5 s: a refusal at t0
// counts until the bucket starting at 2m.
func TestNewThrottleZeroPeriodAndBucketsAreTwoMinutesIn24(t *testing.T) {
	th := must(NewThrottle(ThrottleConfig{}))
	var s ThrottleState
	th.Answered(&s, 4999*ms, false) // the last instant of bucket 0
	if got := th.DropProbability(&s, 2*time.Minute-time.Nanosecond); got != 0.5 {
		t.Errorf("DropProbability(t0+2m−1ns) = %v, want 0.5: bucket 0 is still in the 2m window", got)
	}
	if got := th.DropProbability(&s, 2*time.Minute); got != 0 {
		t.Errorf("DropProbability(t0+2m) = %v, want 0: bucket 0 has aged out", got)
	}
}
