package web

import (
	"context"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
)

// A step takes at most maxSteps columns at once: maxSteps itself is allowed.
func TestStepUpToMaxSteps(t *testing.T) {
	sc, err := scenarios.LoadBuiltin("steady-overload")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		n  int
		ok bool
	}{{maxSteps, true}, {maxSteps + 1, false}} {
		sess, err := newSession(context.Background(), sc, 0, "rlsim run "+sc.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sess.apply(command{Op: "step", Count: tc.n}); (err == nil) != tc.ok {
			t.Errorf("step %d: %v, want accepted %v", tc.n, err, tc.ok)
		}
	}
}
