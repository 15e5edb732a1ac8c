package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// backendOutageWorld is ten Poisson clients before a backend of 4 workers and a queue
// of 20 that goes down from 5s to 6s: the queue is answered 503 and every
// request arriving meanwhile is shed by the backend.
func backendOutageWorld(lane LaneKind) Config {
	return Config{
		Duration: 12 * time.Second,
		Seed:     3,
		Limits:   []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
		Lanes:    []LaneKind{lane},
		Clients:  []ClientGroup{{Name: "users", Count: 10, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 10, Per: time.Second}}}}},
		Backend: &Backend{Capacity: 4, QueueSize: 20, Service: Service{Mean: 50 * time.Millisecond},
			Changes: []BackendChange{{At: 5 * time.Second, Capacity: 0},
				{At: 6 * time.Second, Capacity: 4, Service: Service{Mean: 50 * time.Millisecond}}}},
	}
}

// A concurrency lane's requests in flight are the requests the backend holds:
// every admitted request is released when it succeeds or when the backend
// sheds it (its queue full, an outage). Counted from the trace (an admission
// adds one, its success or its shed by the backend takes it away), the lane's
// own in-flight count agrees after every event, and after the outage the lane
// admits again: before the fix, the slots of the requests the outage shed were
// held for ever and the lane shed nearly everything after it.
func TestConcurrencyLaneReleasesWhatTheBackendSheds(t *testing.T) {
	for _, info := range Lanes() {
		if info.Class != ConcurrencyLimiter {
			continue
		}
		t.Run(info.Name, func(t *testing.T) {
			var log traceLog
			mustRun(t, backendOutageWorld(info.Kind), Options{Trace: &log})
			type attempt struct {
				client  int
				request int64
				attempt int
			}
			held := map[attempt]bool{}
			admittedLate, sentLate := 0, 0
			for i, r := range log.recs {
				a := attempt{r.Client, r.Request, r.Attempt}
				switch r.Event {
				case TraceAdmit:
					held[a] = true
					if r.At > 7*time.Second {
						admittedLate++
					}
				case TraceSuccess, TraceShed:
					delete(held, a) // a shed at the door was never held
				}
				if r.At > 7*time.Second && r.Attempt == 1 && r.Event != TraceSuccess {
					sentLate++
				}
				if r.InFlight != len(held) {
					t.Fatalf("record %d (%v at %v): the lane says %d in flight, the backend holds %d", i, r.Event, r.At, r.InFlight, len(held))
				}
			}
			if admittedLate*2 < sentLate {
				t.Errorf("after the outage the lane admitted %d requests of %d sent, want most", admittedLate, sentLate)
			}
		})
	}
}
