package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// A store down from 2s to 4s: the phases say when the store started
// refusing, when each limit first decided by its fail mode and when the store
// answered again, in time order.
func TestPhasesTellTheStoreStretchesInOrder(t *testing.T) {
	limit := func(name string, ep string, mode FailMode) Limit {
		return Limit{Name: name, Key: KeyIP, Endpoint: ep, State: StateShared, OnStoreError: mode,
			Policy: algorithms.Policy{Limit: 100, Window: time.Second}}
	}
	cfg := Config{
		Duration: 8 * time.Second, Seed: 1, Lanes: []LaneKind{LaneTokenBucket},
		Limits: []Limit{limit("login", "login", FailOpen), limit("health", "health", FailClosed)},
		Clients: []ClientGroup{
			{Name: "users", Count: 2, Identity: Identity{IP: "10.0.0.{i}", Endpoint: "login"}, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 10, Per: time.Second}}}},
			{Name: "probe", Count: 1, Identity: Identity{IP: "10.0.1.{i}", Endpoint: "health"}, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 10, Per: time.Second}}}},
		},
		Topology: &Topology{Replicas: []ReplicaStep{{Count: 2}}, Store: Store{
			Latency: Service{Mean: time.Millisecond}, Timeout: 20 * time.Millisecond,
			Outages: []Outage{{From: 2 * time.Second, To: 4 * time.Second}}}},
	}
	r := mustRun(t, cfg, Options{}).Lanes[0].Topology
	got := []PhaseKind{}
	for i, p := range r.Phases {
		got = append(got, p.Kind)
		if i > 0 && p.At < r.Phases[i-1].At {
			t.Errorf("phase %d (%s at %v) before phase %d (%v)", i, p.Kind, p.At, i-1, r.Phases[i-1].At)
		}
	}
	want := []PhaseKind{PhaseStoreRefusing, PhaseFailOpen, PhaseFailClosed, PhaseStoreAnswering}
	if len(got) != len(want) {
		t.Fatalf("phases %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] && !(i == 1 || i == 2) { // the two limits' first failures may come in either order
			t.Errorf("phase %d is %s, want %s (all: %v)", i, got[i], want[i], got)
		}
	}
	if r.Phases[0].At != 2*time.Second || r.Phases[3].At < 4*time.Second || r.Phases[3].At > 4*time.Second+100*time.Millisecond {
		t.Errorf("store refusing at %v and answering at %v, want 2s and just after 4s", r.Phases[0].At, r.Phases[3].At)
	}
	for _, p := range r.Phases[1:3] {
		if (p.Kind == PhaseFailOpen) != (p.Limit == "login") || p.At < 2*time.Second || p.At >= 4*time.Second {
			t.Errorf("%s of %q at %v: want login failing open and health closed, inside the outage", p.Kind, p.Limit, p.At)
		}
	}
}
