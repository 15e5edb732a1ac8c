package sim

import (
	"context"
	"strings"
	"testing"
	"time"
)

// probeLanes reports the error that building any lane would report, the last
// lane's too, before any lane runs (Validate is bypassed here: the probe's own
// promise is under test, for a lane whose settings only its build refuses).
func TestProbeLanesBuildsEveryLane(t *testing.T) {
	cfg := auditConfig()
	cfg.Lanes = []LaneKind{LaneFixedWindow, LaneTokenBucket, LaneAIMD}
	cfg.AIMD = AIMDSettings{Initial: 10, Min: 1, Max: 100, Target: 2 * time.Millisecond, Backoff: 0.5}
	s, pop, err := newSimulation(context.Background(), cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := probeLanes(context.Background(), &s.cfg, pop); err != nil {
		t.Fatalf("a valid world: %v", err)
	}
	s.cfg.AIMD.Min = 200 // past max: NewAIMD refuses it
	if err := probeLanes(context.Background(), &s.cfg, pop); err == nil || !strings.Contains(strings.ToLower(err.Error()), "aimd") {
		t.Errorf("the last lane's build error: %v", err)
	}
}
