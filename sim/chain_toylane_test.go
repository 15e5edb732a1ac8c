package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/internal/toylane"
)

// TestToyLaneRunsEverywhere adds a per-key lane by its algorithm and a registry
// row alone (toylane.Budget, which takes no fast path) and runs it in every
// topology state and fail mode, where it must decide as the fixed window it
// copies: every lane list in sim reads the registry.
func TestToyLaneRunsEverywhere(t *testing.T) {
	toy, undo := AddTestLane[toylane.State]("toy_budget", toylane.New)
	defer undo()
	if got, ok := ParseLane("toy_budget"); !ok || got != toy {
		t.Fatalf("ParseLane(toy_budget) = %v, %v; want %v, true", got, ok, toy)
	}
	// It declares no fast path (fastNone), and its table takes none.
	d, err := newDecider(plainRule(toy), algorithms.Policy{Limit: 5, Window: time.Second}, 1)
	if err != nil {
		t.Fatal(err)
	}
	direct := directPathOf(d)
	if q, _ := d.(admitter); direct.known() || q.admits() || toy.Info().fast != fastNone {
		t.Errorf("toy lane: direct path %v, admits %v, declares %b: want none of them", direct.known(), q.admits(), toy.Info().fast)
	}
	states := []struct {
		name string
		topo *Topology
		set  func(l *Limit)
	}{
		{"alone", nil, func(*Limit) {}},
		{"local", &Topology{Replicas: []ReplicaStep{{Count: 3}}}, func(l *Limit) { l.State = StateLocal }},
		{"local divided", &Topology{Replicas: []ReplicaStep{{Count: 3}}}, func(l *Limit) { l.State, l.LocalLimit = StateLocal, LocalDivided }},
		{"shared", &Topology{Replicas: []ReplicaStep{{Count: 3}}}, func(l *Limit) { l.State = StateShared }},
		{"shared racy", &Topology{Replicas: []ReplicaStep{{Count: 3}}, Store: Store{Racy: true, Latency: Service{Kind: ServiceConstant, Mean: time.Millisecond}}},
			func(l *Limit) { l.State = StateShared }},
		{"synced", &Topology{Replicas: []ReplicaStep{{Count: 3}}}, func(l *Limit) { l.State, l.SyncInterval = StateSynced, 50*time.Millisecond }},
	}
	outage := []Outage{{From: 2 * time.Second, To: 3 * time.Second}}
	modes := []struct {
		name string
		set  func(l *Limit)
	}{
		{"open", func(l *Limit) { l.OnStoreError = FailOpen }},
		{"closed", func(l *Limit) { l.OnStoreError = FailClosed }},
		{"local", func(l *Limit) {
			l.OnStoreError, l.Fallback = FailLocal, algorithms.Policy{Limit: 2, Window: time.Second}
		}},
	}
	for _, st := range states {
		for _, m := range modes {
			cfg := Config{Duration: 5 * time.Second, Seed: 1,
				Limits:  []Limit{{Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
				Lanes:   []LaneKind{LaneFixedWindow, toy},
				Clients: []ClientGroup{{Name: "c", Count: 4, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 20, Per: time.Second}}}}}}
			st.set(&cfg.Limits[0])
			m.set(&cfg.Limits[0])
			if st.topo != nil {
				topo := *st.topo
				topo.Store.Outages = outage
				cfg.Topology = &topo
			}
			t.Run(st.name+"/"+m.name, func(t *testing.T) {
				res, err := Run(t.Context(), cfg, Options{})
				if err != nil {
					t.Fatal(err)
				}
				fw, got := res.Lanes[0], res.Lanes[1]
				if got.Admitted == 0 || got.Refused == 0 {
					t.Errorf("toy lane admitted %d, refused %d: want some of each", got.Admitted, got.Refused)
				}
				if got.Admitted != fw.Admitted || got.Refused != fw.Refused || got.Attempts != fw.Attempts {
					t.Errorf("toy lane attempts/admitted/refused %d/%d/%d, fixed window %d/%d/%d: want the same",
						got.Attempts, got.Admitted, got.Refused, fw.Attempts, fw.Admitted, fw.Refused)
				}
			})
		}
	}
}
