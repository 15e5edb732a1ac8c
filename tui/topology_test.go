package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// fleetScenario has an autoscaler step at 2s and a store outage in [3s, 4s).
const fleetScenario = `
duration: 6s
limits:
  - name: login
    key: ip
    limit: 5
    window: 1s
    state: shared
topology:
  replicas: 2
  autoscaler:
    - at: 2s
      count: 8
  store:
    outages:
      - from: 3s
        to: 4s
clients:
  - name: users
    count: 4
    arrivals:
      - kind: constant
        rate: 10/s
`

func fleetModel(t *testing.T, width, height int) *Model {
	t.Helper()
	s, err := scenarios.Parse("fleet.yaml", []byte(fleetScenario))
	if err != nil {
		t.Fatal(err)
	}
	return newModel(t, []Scenario{{Name: s.Name, Config: *s.Config}}, width, height)
}

// The axis shades exactly the slices that overlap the outage and marks the
// slice of the autoscaler's step.
func TestTopologyMarkedOnTheAxis(t *testing.T) {
	m := fleetModel(t, 120, 30)
	w := m.timeline.width
	var b strings.Builder
	lay := layout{nameW: 4, cols: int(6 * time.Second / w)}
	m.drawAxis(&b, lay)
	ticks := []rune(strings.SplitN(b.String(), "\n", 2)[0])[lay.nameW+1:]
	for j, r := range ticks {
		from, to := time.Duration(j)*w, time.Duration(j+1)*w
		down := from < 4*time.Second && to > 3*time.Second
		switch {
		case from == 2*time.Second && r != glyphReplicas:
			t.Errorf("slice %d (t=%v): %q, want the autoscaler's %q", j, from, r, glyphReplicas)
		case down && r != glyphStoreDown:
			t.Errorf("slice %d (t=%v): %q, want the outage's %q", j, from, r, glyphStoreDown)
		case !down && r == glyphStoreDown:
			t.Errorf("slice %d (t=%v) is marked down outside the outage", j, from)
		}
	}
	if legend := m.legend(120); !strings.Contains(legend, "░ store down") || !strings.Contains(legend, "r replicas change") {
		t.Errorf("legend %q names neither the outage nor the autoscaler", legend)
	}
}

func TestFleetInfo(t *testing.T) {
	topo := &sim.Topology{Replicas: []sim.ReplicaStep{{Count: 1}, {At: 2 * time.Second, Count: 8}},
		Store: sim.Store{Outages: []sim.Outage{{From: 3 * time.Second, To: 4 * time.Second}}}}
	for _, tc := range []struct {
		now  time.Duration
		want string
	}{
		{0, " · 1 replica"},
		{2*time.Second - 1, " · 1 replica"},
		{2 * time.Second, " · 8 replicas"},
		{3 * time.Second, " · 8 replicas · store DOWN"},
		{4*time.Second - 1, " · 8 replicas · store DOWN"},
		{4 * time.Second, " · 8 replicas"},
	} {
		if got := fleetInfo(topo, tc.now); got != tc.want {
			t.Errorf("fleetInfo(t=%v) = %q, want %q", tc.now, got, tc.want)
		}
	}
	if got := fleetInfo(nil, 0); got != "" {
		t.Errorf("without a topology: %q, want nothing", got)
	}
}

// The view of a fleet in its outage: the info line says the store is down,
// the axis shades it and marks the autoscaler's step.
func TestFleetViewGolden(t *testing.T) {
	m := fleetModel(t, 100, 24)
	msgs := keys("space")
	for range 35 {
		msgs = append(msgs, keyMsg("right"))
	}
	send(m, msgs...)
	if now := m.sim.Now(); now < 3*time.Second || now >= 4*time.Second {
		t.Fatalf("the view is at t=%v, not in the outage", now)
	}
	v := m.View()
	checkGolden(t, "fleet_outage", v)
	if !strings.Contains(v, "8 replicas · store DOWN") {
		t.Errorf("the info line does not say the store is down:\n%s", v)
	}
}
