package sim

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

// lateShare is, by its doc comment, the share of a group's attempts the
// backend answers later than the group's timeout by the service time alone:
// a constant service all or none (late when its scaled mean exceeds the
// timeout less the round trip), an exponential one the chance it outlasts
// that time; 0 without a timeout or a backend. The exponential figure is held
// to a count of exponential draws with the same mean, not to a formula.
func TestLateShareIsTheServiceOutlastingTheTimeLeft(t *testing.T) {
	backend := func(kind ServiceKind, mean time.Duration) *Backend {
		return &Backend{Capacity: 4, Service: Service{Kind: kind, Mean: mean}}
	}
	ms := time.Millisecond
	// Constant: late exactly when the scaled service is longer than the time left,
	// on both sides of the edge.
	for _, tc := range []struct {
		mean, timeout, rtt time.Duration
		factor             float64
	}{
		{100 * ms, 200 * ms, 0, 0}, {200 * ms, 200 * ms, 0, 0}, {201 * ms, 200 * ms, 0, 0},
		{150 * ms, 200 * ms, 50 * ms, 0}, {151 * ms, 200 * ms, 50 * ms, 0}, {149 * ms, 200 * ms, 50 * ms, 0},
		{100 * ms, 200 * ms, 0, 2}, {100 * ms, 200 * ms, 0, 2.01}, {100 * ms, 200 * ms, 0, 1.99},
		{10 * ms, 50 * ms, 60 * ms, 0}, // a round trip longer than the timeout: every answer late
	} {
		c := Config{Backend: backend(ServiceConstant, tc.mean)}
		g := ClientGroup{Timeout: tc.timeout, RTT: tc.rtt, ServiceFactor: tc.factor}
		factor := tc.factor
		if factor == 0 {
			factor = 1
		}
		want := 0.0
		if float64(tc.mean)*factor > float64(tc.timeout-tc.rtt) {
			want = 1
		}
		if got := c.lateShare(g); got != want {
			t.Errorf("constant %v ×%v, timeout %v, rtt %v: lateShare = %v, want %v", tc.mean, factor, tc.timeout, tc.rtt, got, want)
		}
	}
	// Exponential: the share of draws longer than the time left.
	rng := rand.New(rand.NewPCG(12, 3))
	const draws = 200_000
	for _, tc := range []struct {
		mean, timeout, rtt time.Duration
		factor             float64
	}{
		{100 * ms, 100 * ms, 0, 0}, {100 * ms, 300 * ms, 0, 0}, {100 * ms, 30 * ms, 0, 0},
		{100 * ms, 250 * ms, 50 * ms, 0}, {100 * ms, 100 * ms, 0, 3}, {100 * ms, 40 * ms, 60 * ms, 0},
	} {
		c := Config{Backend: backend(ServiceExponential, tc.mean)}
		g := ClientGroup{Timeout: tc.timeout, RTT: tc.rtt, ServiceFactor: tc.factor}
		factor := tc.factor
		if factor == 0 {
			factor = 1
		}
		left := tc.timeout - tc.rtt
		late := 0
		for range draws {
			if time.Duration(rng.ExpFloat64()*float64(tc.mean)*factor) > left {
				late++
			}
		}
		want := float64(late) / draws
		if got := c.lateShare(g); math.Abs(got-want) > 0.005 {
			t.Errorf("exponential %v ×%v, timeout %v, rtt %v: lateShare = %.4f, want %.4f (a count of %d draws)", tc.mean, factor, tc.timeout, tc.rtt, got, want, draws)
		}
	}
	// None: no timeout, no backend, no service time.
	for _, c := range []struct {
		name string
		cfg  Config
		g    ClientGroup
	}{
		{"no timeout", Config{Backend: backend(ServiceExponential, 100*ms)}, ClientGroup{}},
		{"no backend", Config{}, ClientGroup{Timeout: ms}},
		{"no service time", Config{Backend: backend(ServiceExponential, 0)}, ClientGroup{Timeout: ms}},
	} {
		if got := c.cfg.lateShare(c.g); got != 0 {
			t.Errorf("%s: lateShare = %v, want 0", c.name, got)
		}
	}
}
