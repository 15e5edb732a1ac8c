package sim

import (
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestOneShotGroupRunsAsOneEventPerClient compares a oneShot group (a burst of
// one per client, one pending event for the whole group) with the same
// arrivals written as a constant rate that sends once before the end, which
// schedules an event per client: every lane's result and trace must be the
// same, with immediate retries at the instant of the burst, a backend, and
// other groups' arrivals between.
func TestOneShotGroupRunsAsOneEventPerClient(t *testing.T) {
	world := func(burst Arrival) Config {
		return Config{Duration: 2 * time.Second, Seed: 3, Lanes: []LaneKind{LaneTokenBucket, LaneLeakyBucket, LaneSlidingLog, LaneAIMD},
			Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
			Clients: []ClientGroup{
				{Name: "steady", Count: 3, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 20, Per: time.Second}}}},
				{Name: "users", Count: 200, Arrivals: []Arrival{burst}, Retry: Retry{Kind: RetryImmediate, MaxAttempts: 3}},
				{Name: "late", Count: 2, Arrivals: []Arrival{{Kind: ArrivalConstant, Start: 100 * time.Millisecond, Rate: Rate{Count: 1, Per: 50 * time.Millisecond}}}},
			},
			Backend: &Backend{Capacity: 4, QueueSize: 10, Service: Service{Mean: time.Millisecond}},
		}
	}
	burst := world(Arrival{Kind: ArrivalBurst, At: 100 * time.Millisecond, Count: 1})
	if !oneShot(&burst.Clients[1]) {
		t.Fatal("the burst of one is not oneShot")
	}
	perClient := world(Arrival{Kind: ArrivalConstant, Start: 100 * time.Millisecond, Rate: Rate{Count: 1, Per: time.Hour}})
	var a, b traceLog
	ra, rb := mustRun(t, burst, Options{Trace: &a}), mustRun(t, perClient, Options{Trace: &b})
	if len(a.recs) < 400 {
		t.Fatalf("only %d trace records", len(a.recs))
	}
	if !reflect.DeepEqual(a.recs, b.recs) {
		for i := range min(len(a.recs), len(b.recs)) {
			if a.recs[i] != b.recs[i] {
				t.Fatalf("trace record %d: %+v as a burst of one, %+v as one event per client", i, a.recs[i], b.recs[i])
			}
		}
		t.Fatalf("%d trace records as a burst of one, %d as one event per client", len(a.recs), len(b.recs))
	}
	if !reflect.DeepEqual(ra.Lanes, rb.Lanes) {
		t.Error("the lanes' results differ")
	}
}
