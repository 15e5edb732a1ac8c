package sim

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// chainWorld is one client behind a per-user limit of 5 per 10s and a global
// limit of 1 per 100ms.
func chainWorld(lanes []LaneKind, mode ChainMode) Config {
	return Config{Duration: time.Second, Lanes: lanes, Chain: mode,
		Limits: []Limit{
			{Name: "per-user", Key: KeyUser, Policy: algorithms.Policy{Limit: 5, Window: 10 * time.Second}},
			{Name: "global", Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1, Window: 100 * time.Millisecond}},
		},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{
			{Kind: ArrivalBurst, Count: 5},                             // 1 admitted, 4 refused by the global limit
			{Kind: ArrivalBurst, At: 200 * time.Millisecond, Count: 1}, // the per-user limit has room for it
		}}},
	}
}

// A request the global limit refuses is not counted by the per-user limit before
// it (nginx with two limit_req zones), so the per-user budget still has room at
// 200ms. Charging until refused spends the whole per-user budget on the refused
// burst.
func TestChainChargesNothingWhenALimitRefuses(t *testing.T) {
	lanes := []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneTokenBucket, LaneGCRA}
	for _, tt := range []struct {
		mode         ChainMode
		wantAdmitted int64
		wantPerUser  int64 // refusals by the per-user limit
	}{{ChainAllOrNothing, 2, 0}, {ChainChargeUntilRefused, 1, 1}} {
		for _, l := range mustRun(t, chainWorld(lanes, tt.mode), Options{}).Lanes {
			if l.Admitted != tt.wantAdmitted || l.RefusedBy[0].Count != tt.wantPerUser {
				t.Errorf("%v, %v: admitted %d, per-user refusals %d; want %d and %d",
					tt.mode, l.Lane, l.Admitted, l.RefusedBy[0].Count, tt.wantAdmitted, tt.wantPerUser)
			}
		}
	}
}

// TestChainRefusalLeavesEarlierLimitsAlone is the chain's property on random
// traffic: for every per-key lane, the first limit of a two-limit chain answers
// every request exactly as a lone twin that was charged only the requests the
// whole chain admitted.
func TestChainRefusalLeavesEarlierLimitsAlone(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, kind := range []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneTokenBucket, LaneLeakyBucket, LaneGCRA} {
		for c := range 30 {
			p0 := algorithms.Policy{Limit: 1 + r.Int64N(8), Window: time.Duration(1+r.IntN(1000)) * time.Millisecond}
			p1 := algorithms.Policy{Limit: 1 + r.Int64N(8), Window: time.Duration(1+r.IntN(1000)) * time.Millisecond}
			first, _ := newDecider(plainRule(kind), p0, 1)
			second, _ := newDecider(plainRule(kind), p1, 1)
			twin, _ := newDecider(plainRule(kind), p0, 1)
			l := &lane{cfg: &Config{Limits: []Limit{{Policy: p0}, {Policy: p1}}}, chain: []decider{first, second}, shadow: []bool{false, false},
				pop: &population{keyOf: [][]int32{{0}, {0}}}}
			var now time.Duration
			for i := range 300 {
				now += time.Duration(r.Int64N(int64(p0.Window)/4 + 1))
				cost := 1 + r.Int64N(2)
				want := twin.peek(0, now, cost)
				if got := first.peek(0, now, cost); got != want {
					t.Fatalf("%v case %d (%+v then %+v) request %d at %v: first limit answers %+v, its twin charged only admissions %+v",
						kind, c, p0, p1, i, now, got, want)
				}
				if _, _, refused := l.decideChain(0, now, cost); !refused {
					twin.decide(0, now, cost)
				}
			}
		}
	}
}
