package report

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// A class is starved under half its fair share (judgement.Starved): exactly
// half is not under it.
func TestStarvedStrictlyUnderHalf(t *testing.T) {
	for _, tc := range []struct {
		succeeded int64
		want      bool
	}{{4, true}, {5, false}, {6, false}} {
		l := sim.LaneResult{Classes: []sim.ClassResult{
			{Name: "a", Succeeded: tc.succeeded, FairShare: 10},
			{Name: "b", Succeeded: 20 - tc.succeeded, FairShare: 10},
		}}
		if _, got := starved(l); got != tc.want {
			t.Errorf("%d of a fair share of 10: starved %v, want %v", tc.succeeded, got, tc.want)
		}
	}
}

// The dropped finding says what the server saw: the attempts less those the
// clients dropped.
func TestDroppedFindingCountsWhatTheServerSaw(t *testing.T) {
	r := sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneTokenBucket, Attempts: 10, Admitted: 5, Refused: 2, Dropped: 3}}}
	want := "dropped 3 of 10 attempts inside the clients, so the server saw 7"
	for _, f := range Findings(r) {
		if strings.Contains(f, want) {
			return
		}
	}
	t.Errorf("findings %q do not say %q", Findings(r), want)
}

// The retries finding names the most and the least amplified lanes.
func TestRetriesFindingNamesMostAndLeast(t *testing.T) {
	lane := func(k sim.LaneKind, amp float64) sim.LaneResult {
		return sim.LaneResult{Lane: k, RetryAmplification: amp}
	}
	r := sim.Result{Lanes: []sim.LaneResult{
		lane(sim.LaneFixedWindow, 1.5), lane(sim.LaneTokenBucket, 2), lane(sim.LaneSlidingLog, 1.1)}}
	got := retries(r)
	if len(got) != 1 {
		t.Fatalf("retries = %q, want one finding", got)
	}
	most, least := sim.LaneTokenBucket.Title(), sim.LaneSlidingLog.Title()
	if !strings.Contains(got[0], "most under "+most+" (2 attempts") || !strings.Contains(got[0], "least under "+least+" (1.1,") {
		t.Errorf("retries = %q, want the most under %s (2) and the least under %s (1.1)", got[0], most, least)
	}
}

// The utilisation column is a percentage.
func TestUtilisationColumnIsAPercentage(t *testing.T) {
	for _, c := range laneColumns {
		if c.head != "utilisation" {
			continue
		}
		var l sim.LaneResult
		l.Backend.Utilisation = 0.45
		if got := c.text(&l); got != "45%" {
			t.Errorf("utilisation 0.45 shown as %q, want 45%%", got)
		}
		return
	}
	t.Fatal("no utilisation column")
}
