package sim

import (
	"math/rand/v2"
	"testing"
	"testing/quick"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// On arbitrary worlds with round trips, deadlines, budgets, LIFO and CoDel:
// every request is accounted for once (succeeded, given up or pending), the
// abandoned and the denied are among those given up, no success is heard
// after its deadline, and CoDel's drops are among the sheds.
func TestTimeFeaturesInvariants(t *testing.T) {
	f := func(seed uint64) bool {
		rnd := rand.New(rand.NewPCG(seed, 3))
		ms := func(n int) time.Duration { return time.Duration(1+rnd.IntN(n)) * time.Millisecond }
		deadline := ms(800)
		grp := ClientGroup{Count: 1 + rnd.IntN(6), RTT: ms(60) - time.Millisecond, Deadline: deadline,
			Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: int64(5 + rnd.IntN(40)), Per: time.Second}}},
			Retry: Retry{Kind: []RetryKind{RetryImmediate, RetryFixed, RetryExponential}[rnd.IntN(3)], Delay: ms(50), Base: ms(50), Cap: time.Second,
				Jitter: JitterFull, Budget: &RetryBudget{Ratio: float64(rnd.IntN(5)) / 10, MinPerSecond: 1 + rnd.IntN(3), TTL: time.Second}}}
		if grp.RTT == 0 && grp.Retry.Kind == RetryImmediate {
			grp.Retry.MaxAttempts = 5
		}
		cfg := Config{Duration: 3 * time.Second, Drain: time.Second, Seed: seed, Lanes: []LaneKind{LaneTokenBucket, LaneGCRA, LaneAIMD},
			Limits:  []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: int64(2 + rnd.IntN(10)), Window: time.Second}}},
			Clients: []ClientGroup{grp},
			Backend: &Backend{Capacity: 1 + rnd.IntN(3), QueueSize: rnd.IntN(30), Discipline: QueueDiscipline(rnd.IntN(2)),
				Service: Service{Kind: ServiceExponential, Mean: ms(80)}}}
		if rnd.IntN(2) == 0 {
			cfg.Backend.CoDel = &CoDel{}
		}
		if err := cfg.Validate(); err != nil {
			t.Logf("seed %d: %v", seed, err)
			return false
		}
		for _, l := range mustRun(t, cfg, Options{}).Lanes {
			c := l.Classes[0]
			switch {
			case l.Succeeded+l.GaveUp+l.Pending != l.Unique || l.Pending < 0:
				t.Logf("seed %d %s: %d succeeded + %d gave up + %d pending ≠ %d", seed, l.Name, l.Succeeded, l.GaveUp, l.Pending, l.Unique)
			case l.Abandoned+l.RetriesDenied > l.GaveUp:
				t.Logf("seed %d %s: %d abandoned + %d denied > %d gave up", seed, l.Name, l.Abandoned, l.RetriesDenied, l.GaveUp)
			case c.Succeeded > 0 && c.TimeToSuccess.Max > deadline:
				t.Logf("seed %d %s: a success heard %v after its send, past the deadline %v", seed, l.Name, c.TimeToSuccess.Max, deadline)
			case l.Backend.Dropped > l.Shed || l.Backend.Served < l.Succeeded:
				t.Logf("seed %d %s: dropped %d shed %d served %d succeeded %d", seed, l.Name, l.Backend.Dropped, l.Shed, l.Backend.Served, l.Succeeded)
			case l.WastedWork < 0 || (l.Abandoned == 0 && l.WastedWork > 0):
				t.Logf("seed %d %s: wasted %v with %d abandoned", seed, l.Name, l.WastedWork, l.Abandoned)
			default:
				continue
			}
			return false
		}
		return true
	}
	if err := quick.Check(f, &quick.Config{MaxCount: 40}); err != nil {
		t.Error(err)
	}
}
