package report

import (
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// TestLossSpecJSONEveryField: the store's restarts and partitions (refused or
// hung) and the health check, with its defaults, reach the topology's JSON,
// each field from the topology.
func TestLossSpecJSONEveryField(t *testing.T) {
	topo := &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 3}}, Store: sim.Store{
		Restarts: []time.Duration{1500 * time.Millisecond, 4 * time.Second},
		Partitions: []sim.Partition{
			{From: time.Second, To: 2 * time.Second, Replicas: []int{0, 2}, Hung: true},
			{From: 3 * time.Second, To: 3500 * time.Millisecond, Replicas: []int{1}},
		}},
		Health: &sim.HealthCheck{Interval: 2 * time.Second}}
	jt := topologySpecJSON(topo)
	if want := []float64{1.5, 4}; !reflect.DeepEqual(jt.Store.RestartsS, want) {
		t.Errorf("restarts_s = %v, want %v", jt.Store.RestartsS, want)
	}
	want := []jsonPartition{{1, 2, []int{0, 2}, "hung"}, {3, 3.5, []int{1}, "refused"}}
	if !reflect.DeepEqual(jt.Store.Partitions, want) {
		t.Errorf("partitions = %+v, want %+v", jt.Store.Partitions, want)
	}
	wantHealth := jsonHealthSpec{sim.DefaultHealthEndpoint, 2, sim.DefaultHealthUnhealthyAfter, sim.DefaultHealthHealthyAfter}
	if jt.Health == nil || *jt.Health != wantHealth {
		t.Errorf("health = %+v, want %+v", jt.Health, wantHealth)
	}
	topo.Health = &sim.HealthCheck{Endpoint: "/ready", Interval: time.Second, UnhealthyAfter: 5, HealthyAfter: 2}
	if jt := topologySpecJSON(topo); jt.Health == nil || *jt.Health != (jsonHealthSpec{"/ready", 1, 5, 2}) {
		t.Errorf("health given whole = %+v", jt.Health)
	}
	topo.Health, topo.Store = nil, sim.Store{}
	if jt := topologySpecJSON(topo); jt.Health != nil || jt.Store.RestartsS != nil || jt.Store.Partitions != nil {
		t.Errorf("no losses: %+v", jt)
	}
}
