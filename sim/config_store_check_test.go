package sim

import (
	"errors"
	"math"
	"slices"
	"testing"
	"time"
)

// Validate names every bad field of a store's shards, capacity, queue,
// memory and changes: negatives, NaN, infinities, past the caps, unknown
// names, changes out of order.
func TestValidateStoreSystem(t *testing.T) {
	cfg := hotKey(1, nil)
	cfg.Limits[0].State = StateShared
	cfg.Topology = &Topology{Replicas: replicas(1), Store: Store{Shards: MaxShards + 1, Capacity: math.NaN(), Service: 9,
		QueueLimit: -1, MaxMemory: -1, Eviction: 7, Changes: []StoreChange{
			{At: time.Second, Capacity: math.Inf(1)},
			{At: time.Second, Latency: Service{Mean: -1, Kind: 5}},
		}}}
	var fes FieldErrors
	if err := cfg.Validate(); !errors.As(err, &fes) {
		t.Fatalf("Validate() = %v, want FieldErrors", err)
	}
	want := []string{"topology.store.shards", "topology.store.capacity", "topology.store.service", "topology.store.queue_limit",
		"topology.store.maxmemory", "topology.store.eviction", "topology.store.changes[0].capacity",
		"topology.store.changes[1].at", "topology.store.changes[1].latency.mean", "topology.store.changes[1].latency.distribution"}
	var got []string
	for _, fe := range fes {
		got = append(got, fe.Field)
	}
	if !slices.Equal(got, want) {
		t.Errorf("fields in error:\n%v\nwant\n%v\n(%v)", got, want, fes)
	}
	for _, v := range []float64{-1, MaxStoreCapacity * 2} {
		cfg.Topology.Store = Store{Capacity: v}
		if cfg.Validate() == nil {
			t.Errorf("capacity %v accepted", v)
		}
	}
	cfg.Topology.Store = Store{Shards: MaxShards, Capacity: MaxStoreCapacity, QueueLimit: MaxStoreQueue, MaxMemory: 1, Eviction: EvictLRU}
	if err := cfg.Validate(); err != nil {
		t.Errorf("the largest settings: %v", err)
	}
}
