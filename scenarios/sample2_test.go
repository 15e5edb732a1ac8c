package scenarios

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// Each op compares as written: a value exactly at the threshold meets >= and
// <=, not > and <.
func TestCheckOpsAtTheThreshold(t *testing.T) {
	for op, want := range map[string]bool{">=": true, "<=": true, ">": false, "<": false} {
		if got := (Check{Op: op, Want: 0.99}).Passes(0.99); got != want {
			t.Errorf("0.99 %s 0.99 passes %v, want %v", op, got, want)
		}
	}
	if !(Check{Op: ">=", Want: 0.99}).Passes(1) || (Check{Op: ">=", Want: 0.99}).Passes(0.98) {
		t.Error(">= 0.99 does not order 1 and 0.98")
	}
}

// A rate's period may be a bare unit, meaning one of it ("10/s" is 10 per 1s),
// Go's µs among them.
func TestRatePerBareUnit(t *testing.T) {
	for _, tc := range []struct {
		in  string
		per time.Duration
	}{{"10/s", time.Second}, {"3/ms", time.Millisecond}, {"2/µs", time.Microsecond}, {"2/μs", time.Microsecond}, {"5/2s", 2 * time.Second}} {
		r, err := parseRate(tc.in)
		if err != nil || r.Per != tc.per {
			t.Errorf("parseRate(%q) = %v, %v; want per %v", tc.in, r, err, tc.per)
		}
	}
}

// A limit divided over n replicas gives each at least 1 while it is n or
// more: only a limit under the replica count leaves some with nothing.
func TestDividedWarningOnlyUnderTheReplicaCount(t *testing.T) {
	steps := []sim.ReplicaStep{{Count: 3}}
	p := func(limit, burst int64) algorithms.Policy {
		return algorithms.Policy{Limit: limit, Window: time.Second, Burst: burst}
	}
	if w := dividedWarning(p(3, 0), steps); w != "" {
		t.Errorf("3 per 1s over 3 replicas warns %q, want nothing (1 each)", w)
	}
	if w := dividedWarning(p(3, 3), steps); w != "" {
		t.Errorf("burst 3 over 3 replicas warns %q, want nothing", w)
	}
	if w := dividedWarning(p(2, 0), steps); !strings.Contains(w, "leaves 1 of them a share of nothing") {
		t.Errorf("2 per 1s over 3 replicas warns %q, want one replica left nothing", w)
	}
}
