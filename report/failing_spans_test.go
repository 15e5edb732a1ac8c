package report

import (
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// A stretch of failed calls runs from a shard's first failure to its next
// answer; one never answered runs to the run's end, which is the last series
// bucket's end when the lanes drained past the duration.
func TestFailingSpansFromThePhases(t *testing.T) {
	s := time.Second
	ph := func(at time.Duration, k sim.PhaseKind, shard int) sim.Phase {
		return sim.Phase{At: at, Kind: k, Shard: shard, Replica: -1}
	}
	lane := sim.LaneResult{
		Series: []sim.Point{{Start: 0}, {Start: 10 * s}, {Start: 20 * s}},
		Topology: &sim.TopologyResult{Phases: []sim.Phase{
			ph(1*s, sim.PhaseStoreTimeouts, 0),
			ph(2*s, sim.PhaseStoreRefusing, 0), // the same stretch
			ph(3*s, sim.PhaseStoreAnswering, 0),
			ph(4*s, sim.PhaseStoreAnswering, 0), // answering again: no stretch
			ph(5*s, sim.PhaseStoreRefusing, 1),
			ph(6*s, sim.PhaseStoreTimeouts, 2),
			ph(7*s, sim.PhaseStoreAnswering, 1),
			ph(8*s, sim.PhaseStoreAnswering, 2),
			ph(12*s, sim.PhaseStoreRefusing, 3), // never answered
		}},
	}
	r := sim.Result{Duration: 25 * s, Bucket: 10 * s, Lanes: []sim.LaneResult{lane}}
	if got := runSpan(r); got != (sim.Span{To: 30 * s}) {
		t.Errorf("runSpan = %v, want to 30s (the last bucket, from 20s, ends there)", got)
	}
	r.Duration = 40 * s
	if got := runSpan(r); got != (sim.Span{To: 40 * s}) {
		t.Errorf("runSpan = %v, want the duration, 40s", got)
	}
	got := failingSpans(lane, sim.Span{To: 30 * s})
	want := []sim.Span{{From: 1 * s, To: 3 * s}, {From: 5 * s, To: 8 * s}, {From: 12 * s, To: 30 * s}}
	if !slices.Equal(got, want) {
		t.Errorf("failingSpans = %v, want %v", got, want)
	}
	if failingSpans(sim.LaneResult{}, sim.Span{To: s}) != nil || anyFailing(sim.Result{Lanes: []sim.LaneResult{{}}}) {
		t.Error("a lane without a fleet has no failing spans")
	}
	if !anyFailing(r) {
		t.Error("anyFailing: a lane had some")
	}
}
