package report

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// dividedFleet is one attacker's address hitting a login limit divided over 8
// replicas, round robin: limit %d per 15m.
const dividedFleet = `duration: 20m
lanes: [sliding_log, token_bucket, gcra]
limits:
  - name: login
    key: ip
    limit: %d
    window: 15m
    state: local
    local_limit: divided
topology:
  replicas: 8
clients:
  - name: attacker
    arrivals: [{kind: constant, rate: 1/s}]
`

// TestDividedFinding: a limit divided over more replicas than it has units per
// window is told as the fleet's real limit, and the trace holds the fleet to
// it; a limit with a unit for every replica gets no such sentence.
func TestDividedFinding(t *testing.T) {
	for _, limit := range []int{5, 7, 8, 12} {
		o, log := runYAML(t, fmt.Sprintf(dividedFleet, limit))
		fs := findingsWith(o, "divided over 8 replicas")
		want := fmt.Sprintf("the limit login of %d per 15m divided over 8 replicas leaves %d of them a share of nothing: the fleet admits at most %d per 15m", limit, 8-limit, limit)
		switch {
		case limit >= 8 && len(fs) > 0:
			t.Errorf("limit %d over 8 replicas: findings %q, want none on a share of nothing", limit, fs)
		case limit < 8 && (len(fs) != 1 || !strings.HasPrefix(fs[0], want)):
			t.Errorf("limit %d over 8 replicas: findings %q, want one beginning %q", limit, fs, want)
		}
		// The sliding log is exact in any window; a bucket may admit its
		// burst and its refill in one window, divided or not.
		if got := mostInWindow(admitsOf(log, "")[sim.LaneSlidingLog], 15*time.Minute); got > int64(limit) {
			t.Errorf("limit %d divided over 8 replicas: the sliding log admitted %d in a 15m window", limit, got)
		}
	}
}
