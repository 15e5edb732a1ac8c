package scenarios

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// Each metric's threshold is accepted at both ends of its range and refused
// just past them: a share from 0% to 100% (or 0 to 1), a time, a rate and a
// ratio from 0 up.
func TestAuditThresholdRanges(t *testing.T) {
	for _, tc := range []struct {
		metric Metric
		in     string
		want   float64
		ok     bool
	}{
		{SuccessRate, "0%", 0, true},
		{SuccessRate, "0", 0, true},
		{SuccessRate, "1", 1, true},
		{SuccessRate, "50%", 0.5, true},
		{SuccessRate, "100.1%", 0, false},
		{SuccessRate, "1.001", 0, false},
		{SuccessRate, "-0.1%", 0, false},
		{SuccessRate, "-0.001", 0, false},
		{P99TimeToSuccess, "0s", 0, true},
		{P99TimeToSuccess, "0", 0, true},
		{P99TimeToSuccess, "1ns", 1, true},
		{P99TimeToSuccess, "-1ns", 0, false},
		{P99TimeToSuccess, "250", 0, false}, // no unit
		{AdmittedRate, "0/s", 0, true},
		{AdmittedRate, "2", 2, true},
		{AdmittedRate, "2.5/s", 2.5, true},
		{AdmittedRate, "-0.5/s", 0, false},
		{PeakRatio, "0", 0, true},
		{PeakRatio, "1.2", 1.2, true},
		{PeakRatio, "-0.001", 0, false},
	} {
		got, err := ParseThreshold(tc.metric, tc.in)
		if (err == nil) != tc.ok || tc.ok && got != tc.want {
			t.Errorf("ParseThreshold(%s, %q) = %v, %v; want %v, ok %v", tc.metric, tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// A duration and a rate's period may be as long as sim.MaxTime (100 years) and
// not a nanosecond longer.
func TestAuditHundredYearsInclusive(t *testing.T) {
	at, past := sim.MaxTime.String(), (sim.MaxTime + 1).String()
	var d Duration
	if err := d.parseScalar(at); err != nil || time.Duration(d) != sim.MaxTime {
		t.Errorf("duration %s: %v, %v; want accepted", at, time.Duration(d), err)
	}
	if err := d.parseScalar(past); err == nil || !strings.Contains(err.Error(), "more than 100 years") {
		t.Errorf("duration %s: %v, want more than 100 years", past, err)
	}
	var r Rate
	if err := r.parseScalar("1/" + at); err != nil || r.Per != sim.MaxTime {
		t.Errorf("rate 1/%s: %v, %v; want accepted", at, r, err)
	}
	if err := r.parseScalar("1/" + past); err == nil || !strings.Contains(err.Error(), "period of more than 100 years") {
		t.Errorf("rate 1/%s: %v, want a period of more than 100 years", past, err)
	}
}

// A rate needs a count of at least 1 and a period of at least 1ns.
func TestAuditRateSmallest(t *testing.T) {
	for _, tc := range []struct {
		in string
		ok bool
	}{{"1/1ns", true}, {"1/0s", false}, {"0/s", false}, {"1 per 1ns", true}, {"-1/s", false}} {
		r, err := parseRate(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("parseRate(%q) = %v, %v; want ok %v", tc.in, r, err, tc.ok)
		}
		if tc.ok && (r.Count != 1 || r.Per != time.Nanosecond) {
			t.Errorf("parseRate(%q) = %v, want 1 per 1ns", tc.in, r)
		}
	}
}

// A divided burst leaves replicas without one only when it is under the
// replica count, and the count that matters is the most replicas of any
// autoscaler step, not the first.
func TestAuditDividedWarningBurstAndMostReplicas(t *testing.T) {
	p := func(limit, burst int64) algorithms.Policy {
		return algorithms.Policy{Limit: limit, Window: time.Second, Burst: burst}
	}
	three := []sim.ReplicaStep{{Count: 3}}
	w := dividedWarning(p(10, 2), three)
	if !strings.Contains(w, "a burst of 2 divided over 3 replicas leaves 1 of them no burst") {
		t.Errorf("burst 2 over 3 replicas warns %q, want one replica left no burst", w)
	}
	if strings.Contains(w, "share of nothing") {
		t.Errorf("limit 10 over 3 replicas warns %q about the limit", w)
	}
	growing := []sim.ReplicaStep{{Count: 1}, {At: time.Second, Count: 4}, {At: 2 * time.Second, Count: 2}}
	if w := dividedWarning(p(4, 0), growing); w != "" {
		t.Errorf("4 per 1s over at most 4 replicas warns %q, want nothing", w)
	}
	if w := dividedWarning(p(3, 0), growing); !strings.Contains(w, "3 per 1s divided over 4 replicas leaves 1 of them") {
		t.Errorf("3 per 1s over at most 4 replicas warns %q, want the 4 of the second step", w)
	}
}
