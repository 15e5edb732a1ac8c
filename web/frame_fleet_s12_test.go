package web

import (
	"context"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
)

// healthExampleWithLanes is the health check example of docs/scenarios.md
// with its lanes set to lanes (a YAML flow sequence).
func healthExampleWithLanes(t *testing.T, lanes string) *scenarios.Scenario {
	t.Helper()
	return healthExampleWith(t, "lanes: "+lanes+"\n")
}

// The frame's fleet is the first lane with a topology, whichever lane that
// is: a concurrency lane (vegas, aimd) runs no fleet (sim.Result.Topology), so
// the search goes past it to the lane after. Each case's fleet lane runs the
// health example, whose state at 30s is, as TestFrameCarriesTheFleetPhases
// works out by hand, the store down and both replicas out after 8 phases.
func TestFrameFleetIsTheFirstLaneWithATopology(t *testing.T) {
	for _, tc := range []struct {
		lanes string
		want  int // the lane whose fleet the frame carries
	}{
		{"[token_bucket, gcra]", 0},
		{"[vegas, token_bucket]", 1},
		{"[vegas, aimd, gcra, token_bucket]", 2},
	} {
		t.Run(tc.lanes, func(t *testing.T) {
			sess, err := newSession(context.Background(), healthExampleWithLanes(t, tc.lanes), 0, "rlsim run")
			if err != nil {
				t.Fatal(err)
			}
			sess.advance(30 * time.Second)
			fl := sess.frame().Fleet
			want := sess.sim.Snapshot()[tc.want].Title()
			if fl == nil {
				t.Fatalf("lanes %s: no fleet in the frame, want lane %d's (%s)", tc.lanes, tc.want, want)
			}
			if fl.Lane != want {
				t.Errorf("lanes %s: the fleet is %q's, want lane %d's, %q", tc.lanes, fl.Lane, tc.want, want)
			}
			if fl.Now != "the store failing, 2 replicas out, no healthy replica" || fl.Total != 8 || len(fl.Phases) != 8 {
				t.Errorf("lanes %s: fleet %+v", tc.lanes, fl)
			}
		})
	}
}

// A scenario whose every lane bounds concurrency runs no fleet at all, though
// it has a topology: the frame carries none.
func TestFrameHasNoFleetWhenNoLaneRunsOne(t *testing.T) {
	sess, err := newSession(context.Background(), healthExampleWithLanes(t, "[vegas, aimd]"), 0, "rlsim run")
	if err != nil {
		t.Fatal(err)
	}
	sess.advance(30 * time.Second)
	if fl := sess.frame().Fleet; fl != nil {
		t.Errorf("concurrency lanes only: a fleet %+v", fl)
	}
}
