package sim_test

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// A live view fires a burst of 12 and doubles the clients' rate at the present
// virtual time, just before a window boundary; every lane sees both alike: 4
// steady requests before the boundary, the burst, then 8 per second. The fixed
// window admits 14 in the second from 250ms, the sliding log never more than 10.
func ExampleSimulation_Inject() {
	cfg := sim.Config{
		Duration: 2 * time.Second,
		Lanes:    []sim.LaneKind{sim.LaneFixedWindow, sim.LaneSlidingLog},
		Limits:   []sim.Limit{{Key: sim.KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Clients: []sim.ClientGroup{{Name: "steady", Count: 1, Arrivals: []sim.Arrival{
			{Kind: sim.ArrivalConstant, Rate: sim.Rate{Count: 4, Per: time.Second}},
		}}},
	}
	s, _ := sim.New(cfg, sim.Options{})
	s.RunUntil(time.Second - 1)
	_ = s.Inject(0, 12, 200*time.Millisecond) // 12 requests of client 0 over [1s-1ns, 1.2s-1ns)
	_ = s.ChangeRate(0, sim.Rate{Count: 8, Per: time.Second})
	s.RunUntil(s.End())
	for _, l := range s.Snapshot() {
		fmt.Printf("%-12s offered %d, admitted %d, most in any window %d\n", l.Lane.Title(), l.Attempts, l.Admitted, l.Peak.Count)
	}
	// Output:
	// fixed window offered 24, admitted 15, most in any window 14
	// sliding log  offered 24, admitted 14, most in any window 10
}
