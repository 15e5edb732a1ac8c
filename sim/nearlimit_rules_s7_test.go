package sim_test

import (
	"context"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// TestNearLimitAddsUpOverRulePushes: a rule push starts the limit's keys
// afresh, and the lane's near_limit statistic keeps what every replaced
// table counted (docs/scenarios.md, rule pushes; lane_nearlimit.go). 10 a
// second (threshold ⌊10 × 0.8⌋ = 8): 12 hits in the first second count 2;
// pushed to 20 at 1s (threshold 16), 20 hits count 4; pushed back to 10 at
// 2s, 10 hits count 2: 8 in all, 6 of them in tables two pushes replaced.
func TestNearLimitAddsUpOverRulePushes(t *testing.T) {
	src := "duration: 3s\nlanes: [envoy_ratelimit]\n" +
		"limits: [{name: api, key: ip, limit: 10, window: 1s, changes: [{at: 1s, limit: 20}, {at: 2s, limit: 10}]}]\n" +
		"clients: [{arrivals: [{kind: burst, at: 0s, count: 12}, {kind: burst, at: 1s, count: 20}, {kind: burst, at: 2s, count: 10}]}]\n"
	s, err := scenarios.Parse("near.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	res, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Lanes[0].NearLimit
	if len(got) != 1 || got[0].Limit != "api" || got[0].Count != 8 {
		t.Errorf("near_limit %+v, want api 8 (2 + 4 + 2)", got)
	}
}
