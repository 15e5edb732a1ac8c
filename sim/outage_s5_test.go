package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Going to zero capacity is an outage: the requests waiting in the queue are
// answered 503 at once; the one in service finishes.
func TestOutageShedsTheQueue_s5(t *testing.T) {
	cfg := Config{
		Duration: 20 * time.Second, Seed: 1, Lanes: []LaneKind{LaneTokenBucket},
		Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 100, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 4}}}},
		Backend: &Backend{Capacity: 1, QueueSize: 10, Service: Service{Mean: 5 * time.Second},
			Changes: []BackendChange{{At: time.Second, Capacity: 0}}},
	}
	r := mustRun(t, cfg, Options{}).Lanes[0]
	if r.Admitted != 4 {
		t.Fatalf("admitted %d, want 4 (the limit is far above the burst)", r.Admitted)
	}
	if r.Shed != 3 || r.Succeeded != 1 {
		t.Errorf("outage at 1s with 3 queued and 1 in service: shed %d succeeded %d, want 3 and 1", r.Shed, r.Succeeded)
	}
	var shedBy2s int64
	for _, p := range r.Series {
		if p.Start < 2*time.Second {
			shedBy2s += p.Shed
		}
	}
	if shedBy2s != 3 {
		t.Errorf("shed %d in the buckets before 2s, want 3 (at the outage, not later)", shedBy2s)
	}
}
