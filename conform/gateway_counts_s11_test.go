package conform

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// TestGatewayAdmittedCountsOnlyDecidedRequests: a gateway that is the lane's
// own rule but leaves some requests undecided (no answer, a 404, a 302):
// GatewayAdmitted counts its admissions, the undecided ones are NoDecision,
// and LaneAdmitted the lane's admissions of the decided requests alone: the
// gateway's, plus the differences the lane admitted, less those it refused.
func TestGatewayAdmittedCountsOnlyDecidedRequests(t *testing.T) {
	rule, err := sim.LaneGCRA.PerKey(algorithms.Policy{Limit: 5, Window: time.Second, Burst: 3})
	if err != nil {
		t.Fatal(err)
	}
	for seed := range int64(40) {
		rng := rand.New(rand.NewSource(seed))
		start := time.Unix(2_000_000, 0)
		var attempts []Attempt
		var reqs []HTTPRequest
		var results []HTTPResult
		states := map[string]sim.KeyState{}
		var at time.Duration
		admittedDecided, undecided := 0, 0
		for i := range 60 {
			at += time.Duration(rng.Int63n(int64(100 * time.Millisecond)))
			key := fmt.Sprint("k", rng.Intn(2))
			attempts = append(attempts, Attempt{At: at, Key: key, Cost: 1})
			reqs = append(reqs, HTTPRequest{At: at, Key: key, ID: fmt.Sprint(i)})
			if states[key] == nil {
				states[key] = rule.NewState()
			}
			admitted := states[key].Decide(at, 1).Admitted()
			status := map[bool]int{true: 200, false: 429}[admitted]
			if rng.Intn(4) == 0 {
				status, undecided = []int{0, 404, 302}[rng.Intn(3)], undecided+1
			} else if admitted {
				admittedDecided++
			}
			sent := start.Add(at)
			results = append(results, HTTPResult{Status: status, Sent: sent, Answered: sent})
		}
		var c GatewayCheck
		compareGateway(&c, attempts, reqs, results, nil, start, rule, GatewayOptions{Shown: 1000, RefusalStatus: 429})
		lane := c.GatewayAdmitted
		for _, d := range c.Diffs {
			if d.Outcome == GatewayDiffered {
				lane += map[bool]int{true: 1, false: -1}[d.LaneAdmitted]
			}
		}
		if c.GatewayAdmitted != admittedDecided || c.NoDecision != undecided || c.LaneAdmitted != lane {
			t.Errorf("seed %d: gateway admitted %d, no decision %d, lane admitted %d; want %d, %d, and %d",
				seed, c.GatewayAdmitted, c.NoDecision, c.LaneAdmitted, admittedDecided, undecided, lane)
		}
	}
}
