package scenarios

import (
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// A store's shards, capacity, queue, changes and memory read into sim's
// Store as written, and write back to the same file.
func TestParseStoreSystem(t *testing.T) {
	s, err := Parse("f.yaml", []byte(`limits:
  - limit: 5
    state: shared
topology:
  store:
    shards: 4
    capacity: 2500.5
    service: exponential
    queue_limit: 50
    changes:
      - at: 10s
        latency:
          mean: 30ms
          distribution: exponential
      - at: 20s
        down: true
      - at: 30s
        capacity: 100
    maxmemory: 1000000
    eviction: allkeys-lru
`+okClient))
	if err != nil {
		t.Fatal(err)
	}
	st := s.Config.Topology.Store
	want := sim.Store{Shards: 4, Capacity: 2500.5, Service: sim.ServiceExponential, QueueLimit: 50, MaxMemory: 1_000_000, Eviction: sim.EvictLRU,
		Changes: []sim.StoreChange{
			{At: 10 * time.Second, Latency: sim.Service{Kind: sim.ServiceExponential, Mean: 30 * time.Millisecond}},
			{At: 20 * time.Second, Down: true},
			{At: 30 * time.Second, Capacity: 100},
		}}
	if !reflect.DeepEqual(st, want) {
		t.Errorf("store %+v, want %+v", st, want)
	}
	assertRoundTrip(t, s)
}
