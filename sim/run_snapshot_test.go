package sim

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// A live snapshot holds what the result will: the most of one key in flight
// per concurrency limit, the outcomes per criticality and per partition, in
// a lane of a chain with a concurrency limit and shedders and in a
// partitioned AIMD lane; at the end of the run they are the result's.
func TestSnapshotHoldsConcurrencyCriticalityAndPartitions(t *testing.T) {
	poisson := func(n int64) []Arrival {
		return []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: n, Per: time.Second}}}
	}
	cfg := Config{Duration: 2 * time.Second, Lanes: []LaneKind{LaneTokenBucket, LaneAIMD},
		Limits: []Limit{{Name: "rate", Key: KeyUser, Policy: algorithms.Policy{Limit: 50, Window: time.Second}},
			{Name: "in-flight", Key: KeyUser, Concurrency: 3}},
		AIMD: AIMDSettings{Initial: 8, Min: 4, Max: 16},
		Clients: []ClientGroup{{Name: "live", Count: 4, Criticality: CriticalPlus, Arrivals: poisson(20)},
			{Name: "batch", Count: 4, Criticality: Sheddable, Arrivals: poisson(40)}},
		ConcurrencyPartitions: []ConcurrencyPartition{{Name: "live", Classes: []string{"live"}, Share: 0.5}},
		Backend: &Backend{Capacity: 8, QueueSize: 4, Service: Service{Mean: 100 * time.Millisecond, Kind: ServiceExponential},
			Shedding: &Shedding{FleetUsage: &FleetUsage{Reserve: 0.25}}}}
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.RunUntil(time.Second); err != nil {
		t.Fatal(err)
	}
	mid := s.Snapshot()
	if len(mid[0].KeyInFlight) != 1 || mid[0].KeyInFlight[0].Count == 0 || len(mid[0].Criticality) != 2 || mid[0].Partitions != nil {
		t.Errorf("token bucket at 1s: in flight %v, criticality %v, partitions %v; want one count, two criticalities, none", mid[0].KeyInFlight, mid[0].Criticality, mid[0].Partitions)
	}
	if mid[1].KeyInFlight != nil || len(mid[1].Partitions) != 2 || mid[1].Partitions[0].Admitted == 0 {
		t.Errorf("AIMD at 1s: in flight %v, partitions %v; want none, live and unknown", mid[1].KeyInFlight, mid[1].Partitions)
	}
	r, err := s.RunToEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for i, snap := range s.Snapshot() {
		l := r.Lanes[i]
		if !reflect.DeepEqual(snap.KeyInFlight, l.InFlight) || !reflect.DeepEqual(snap.Criticality, l.Criticality) || !reflect.DeepEqual(snap.Partitions, l.Partitions) {
			t.Errorf("%s at the end: snapshot %v %v %v, result %v %v %v", l.Name, snap.KeyInFlight, snap.Criticality, snap.Partitions, l.InFlight, l.Criticality, l.Partitions)
		}
	}
}
