package sim

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// seriesWorld is a hot key on one of 2 shards of a store with a capacity,
// a timeout and a memory: every figure of the series moves.
func seriesWorld() Config {
	return Config{Duration: 2 * time.Second, Lanes: []LaneKind{LaneTokenBucket}, Seed: 3,
		Limits: []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: 20, Window: time.Second}, State: StateShared}},
		Clients: []ClientGroup{
			{Name: "hot", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 400, Per: time.Second}}}},
			{Name: "many", Count: 30, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 4, Per: time.Second}}}}},
		Topology: &Topology{Replicas: replicas(2), Store: Store{Shards: 2, Capacity: 300, QueueLimit: 20, Timeout: 30 * time.Millisecond,
			Latency: Service{Mean: time.Millisecond}, MaxMemory: 1500}}}
}

// Reading the result mid-run (as the TUI and the playground do at every
// frame) changes nothing of the series at the end: the bucket under way is
// summed into a copy, its latencies kept.
func TestShardSeriesReadMidRunIsUnchanged(t *testing.T) {
	whole := mustRun(t, seriesWorld(), Options{}).Lanes[0].Topology.Shards
	s, err := New(seriesWorld(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for at := 7 * time.Millisecond; at < 2*time.Second; at += 93 * time.Millisecond {
		if err := s.RunUntil(at); err != nil {
			t.Fatal(err)
		}
		_ = s.Result()
	}
	res, err := s.RunToEnd(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	read := res.Lanes[0].Topology.Shards
	if len(whole) != 2 || len(whole[0].Series) == 0 || whole[0].TimedOut == 0 {
		t.Fatalf("the world shows nothing: %d shards, series %d, %d timed out", len(whole), len(whole[0].Series), whole[0].TimedOut)
	}
	for i := range whole {
		if !reflect.DeepEqual(whole[i].Series, read[i].Series) {
			for b := range whole[i].Series {
				if b < len(read[i].Series) && whole[i].Series[b] != read[i].Series[b] {
					t.Fatalf("shard %d bucket %d: %+v read mid-run, %+v not", i, b, read[i].Series[b], whole[i].Series[b])
				}
			}
			t.Fatalf("shard %d: %d points read mid-run, %d not", i, len(read[i].Series), len(whole[i].Series))
		}
	}
}
