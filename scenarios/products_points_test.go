package scenarios

import (
	"context"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// nginx-delay: limit_req's burst= decides which requests of a page load pass
// (burst+1 of them at once), delay= and nodelay only when: plain burst queues
// every excess request one emission interval apart, delay=N lets the first N
// excess requests through at once, nodelay queues none. The figures are
// nginx's rule applied by hand to the scenario's page loads, not the lanes'
// output.
func TestNginxDelayMakesItsPoint(t *testing.T) {
	s, err := LoadBuiltin("nginx-delay")
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	const rate, burst, pageSize = 5, 12, 20
	interval := time.Second / rate
	g := s.Config.Clients[0]
	pages := int64(g.Count) * int64((s.Config.Duration-1)/g.Arrivals[0].Idle) // a page after each idle 10s within 30s
	if g.Arrivals[0].Count != pageSize || pages != 6 {
		t.Fatalf("the scenario's page loads changed: %d requests, %d page loads", g.Arrivals[0].Count, pages)
	}
	for _, tc := range []struct {
		lane   string
		queued int64 // excess requests of a page that wait: burst less the delay= ones
	}{{"burst-12", burst}, {"delay-8", burst - 8}, {"nodelay", 0}} {
		l := laneNamed(t, &r, tc.lane)
		if l.Lane != sim.LaneNginx {
			t.Errorf("%s runs %v, want nginx", tc.lane, l.Lane)
		}
		if l.Admitted != pages*(burst+1) || l.Refused != pages*(pageSize-burst-1) {
			t.Errorf("%s admitted %d and refused %d, want %d and %d: burst+1 of each page pass, in every lane",
				tc.lane, l.Admitted, l.Refused, pages*(burst+1), pages*(pageSize-burst-1))
		}
		if l.Delayed != pages*tc.queued || l.Delay.Max != time.Duration(tc.queued)*interval {
			t.Errorf("%s delayed %d, the longest %v; want %d, the longest %v", tc.lane, l.Delayed, l.Delay.Max,
				pages*tc.queued, time.Duration(tc.queued)*interval)
		}
	}
}

func laneNamed(t *testing.T, r *sim.Result, name string) sim.LaneResult {
	t.Helper()
	for _, l := range r.Lanes {
		if l.Name == name {
			return l
		}
	}
	t.Fatalf("no lane %s", name)
	return sim.LaneResult{}
}
