package conform

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// CheckTolerance: from 0 up to a ns under the limit's window.
func TestAuditCheckToleranceEdges(t *testing.T) {
	p := algorithms.Policy{Limit: 10, Window: time.Second}
	for _, tc := range []struct {
		tol time.Duration
		ok  bool
	}{{0, true}, {-1, false}, {time.Second - 1, true}, {time.Second, false}} {
		if err := CheckTolerance(p, tc.tol); (err == nil) != tc.ok {
			t.Errorf("CheckTolerance(window 1s, %v) = %v, want ok %v", tc.tol, err, tc.ok)
		}
	}
}

// Refusals agree when Redis's retry instant is up to tol before the exact
// lane's, not only after; a verdict the exact lane would turn within tol+1ns
// differs.
func TestAuditCompareEarlierRetryAndJustPast(t *testing.T) {
	const tol = 10 * ms
	for _, tc := range []struct {
		name  string
		exact Attempt
		real  Answer
		want  Outcome
	}{
		{"redis's retry instant tol earlier", refuseAt(100*ms, 60*ms), refused(100*ms, 50*ms), Agreed},
		{"redis's retry instant tol+1ns earlier", refuseAt(100*ms, 60*ms+1), refused(100*ms, 50*ms), RetryAfterDiffered},
		{"redis decided tol earlier, same wait", refuseAt(100*ms, 50*ms), refused(90*ms, 50*ms), Agreed},
		{"exact refused for tol+1ns", refuseAt(0, tol+1), admitted(0), Differed},
		{"redis refuses for ever", admitAt(0), refused(0, algorithms.Never), Differed},
		{"invalid answer", admitAt(0), Answer{Invalid: "not a number"}, Invalid},
	} {
		if got := compare(tc.exact, tc.real, tol); got != tc.want {
			t.Errorf("%s: compare(%+v, %+v, %v) = %d, want %d", tc.name, tc.exact, tc.real, tol, got, tc.want)
		}
	}
}

// The server clock runs in real time: its only scale is 1; the other clocks
// take any scale from 1 to MaxScale.
func TestAuditServerClockScaleOne(t *testing.T) {
	for _, tc := range []struct {
		clock Clock
		scale float64
		ok    bool
	}{
		{ClockServer, 1, true}, {ClockServer, 1.0001, false}, {ClockServer, 2, false},
		{ClockDriver, 2, true}, {ClockScheduled, MaxScale, true}, {ClockDriver, 0.999, false},
	} {
		if err := checkReplay(Replay{Clock: tc.clock, Scale: tc.scale}); (err == nil) != tc.ok {
			t.Errorf("clock %v scale %v: %v, want ok %v", tc.clock, tc.scale, err, tc.ok)
		}
	}
}

// MeasureRace takes one replica and one run at least; past that bound it goes
// on to check the pacing (a scale of 0 here), before any connection.
func TestAuditRaceAtLeastOneReplicaAndRun(t *testing.T) {
	for _, tc := range []struct {
		replicas, runs int
		want           string
	}{
		{1, 1, "time scale must be between"},
		{0, 1, "replicas and runs must be at least 1, got 0 and 1"},
		{1, 0, "replicas and runs must be at least 1, got 1 and 0"},
	} {
		_, err := MeasureRace(context.Background(), nil, sim.Config{}, RaceOptions{Lane: sim.LaneGCRA, Replicas: tc.replicas, Runs: tc.runs})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("replicas %d, runs %d: %v, want %q", tc.replicas, tc.runs, err, tc.want)
		}
	}
}
