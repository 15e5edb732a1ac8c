package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// lateWorld is a client-throttled world whose every attempt times out at
// 20ms: the backend takes service to answer.
func lateWorld(service time.Duration) Config {
	return Config{
		Duration: 3 * time.Second, Seed: 5, Lanes: []LaneKind{LaneClientThrottle},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 4, Timeout: 20 * time.Millisecond,
			Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 40, Per: time.Second}}}}},
		Backend: &Backend{Capacity: 1000, Service: Service{Mean: service}},
	}
}

// An answer that comes after its client gave the attempt up tells the client
// nothing: whether the backend serves it at 50ms, within the run, or after
// the run's end, the client sees one timeout each time, and its throttle
// drops and times out exactly as much.
func TestALateAnswerTellsTheClientNothing(t *testing.T) {
	late := mustRun(t, lateWorld(50*time.Millisecond), Options{})
	never := mustRun(t, lateWorld(time.Hour), Options{})
	a, b := &late.Lanes[0], &never.Lanes[0]
	if a.TimedOut == 0 || a.Dropped == 0 {
		t.Fatalf("the world tests nothing: %d timed out, %d dropped", a.TimedOut, a.Dropped)
	}
	if a.Dropped != b.Dropped || a.TimedOut != b.TimedOut || a.Attempts != b.Attempts {
		t.Errorf("served late: %d dropped, %d timed out, %d attempts; never served: %d, %d, %d",
			a.Dropped, a.TimedOut, a.Attempts, b.Dropped, b.TimedOut, b.Attempts)
	}
}
