package conform

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// TestSuitableTellsEveryProblem checks a scenario conform cannot replay is
// told so, every reason at once, at the file's field paths.
func TestSuitableTellsEveryProblem(t *testing.T) {
	p := algorithms.Policy{Limit: 1, Window: time.Second}
	cfg := &sim.Config{Limits: []sim.Limit{{Policy: p}, {Policy: p}}, Rules: []sim.RuleChange{{At: time.Second}}}
	err := Suitable("f.yaml", cfg)
	var errs scenarios.Errors
	if !errors.As(err, &errs) || len(errs) != 2 ||
		!strings.Contains(err.Error(), "f.yaml: limits: conform checks a chain of one limit, got 2") ||
		!strings.Contains(err.Error(), "f.yaml: rules: ") {
		t.Errorf("Suitable = %v", err)
	}
	if err := Suitable("f.yaml", &sim.Config{Limits: []sim.Limit{{Policy: p}}}); err != nil {
		t.Errorf("one plain limit: %v", err)
	}
}

// TestConformLanesKeepsThoseWithScripts checks the lanes conform checks.
func TestConformLanesKeepsThoseWithScripts(t *testing.T) {
	cfg := &sim.Config{Lanes: []sim.LaneKind{sim.LaneAIMD, sim.LaneGCRA, sim.LaneLeakyBucket, sim.LaneFixedWindow}}
	got, err := ConformLanes(cfg, sim.LaneDefault)
	if err != nil || len(got) != 2 || got[0] != sim.LaneGCRA || got[1] != sim.LaneFixedWindow {
		t.Errorf("ConformLanes = %v, %v; want gcra, fixed_window", got, err)
	}
	if _, err := ConformLanes(&sim.Config{Lanes: []sim.LaneKind{sim.LaneAIMD}}, sim.LaneDefault); err == nil {
		t.Error("no lane with a script: no error")
	}
	if _, err := ConformLanes(cfg, sim.LaneLeakyBucket); err == nil {
		t.Error("--lane leaky_bucket: no error")
	}
}

// TestCheckExactRefusesWhatDoublesCannotHold checks the 2^53 guard.
func TestCheckExactRefusesWhatDoublesCannotHold(t *testing.T) {
	ok := LaneTraffic{Lane: sim.LaneGCRA, Policy: algorithms.Policy{Limit: 7, Window: time.Second},
		Attempts: []Attempt{{At: time.Hour, Cost: 1}}}
	big := LaneTraffic{Lane: sim.LaneSlidingWindowCounter, Policy: algorithms.Policy{Limit: 1_000_000, Window: 24 * time.Hour},
		Attempts: []Attempt{{At: time.Hour, Cost: 1}}}
	if err := CheckExact([]LaneTraffic{ok}); err != nil {
		t.Errorf("7 per second for an hour: %v", err)
	}
	if err := CheckExact([]LaneTraffic{ok, big}); err == nil || !strings.Contains(err.Error(), "lane sliding_window_counter") {
		t.Errorf("a million per day: %v, want it refused", err)
	}
}
