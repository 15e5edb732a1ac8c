package scenarios

import (
	"context"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// runConfig runs a built-in's config after change alters it, lanes by kind.
func runConfig(t *testing.T, name string, change func(*sim.Config), opt sim.Options) map[sim.LaneKind]sim.LaneResult {
	t.Helper()
	s, err := LoadBuiltin(name)
	if err != nil {
		t.Fatal(err)
	}
	cfg := *s.Config
	topo := *cfg.Topology
	cfg.Topology = &topo
	cfg.Limits = append([]sim.Limit(nil), cfg.Limits...)
	if change != nil {
		change(&cfg)
	}
	r, err := sim.Run(context.Background(), cfg, opt)
	if err != nil {
		t.Fatal(err)
	}
	lanes := map[sim.LaneKind]sim.LaneResult{}
	for _, l := range r.Lanes {
		lanes[l.Lane] = l
	}
	return lanes
}

// multi-replica-trap: with n local replicas the fleet's most admitted in a
// window for the integrator's key is exactly n × the limit (sliding log: each
// replica exact), whatever n; in a shared store it is the limit.
func TestMultiReplicaTrapMakesItsPoint(t *testing.T) {
	for _, n := range []int{1, 2, 4, 8} {
		for _, state := range []sim.StateKind{sim.StateLocal, sim.StateShared} {
			lanes := runConfig(t, "multi-replica-trap", func(c *sim.Config) {
				c.Topology.Replicas = []sim.ReplicaStep{{Count: n}}
				c.Limits[0].State = state
			}, sim.Options{})
			lt := lanes[sim.LaneSlidingLog].Topology.Limits[0]
			want := int64(100)
			if state == sim.StateLocal {
				want *= int64(n)
			}
			if lt.Fleet.Count != want || lt.Fleet.Key != "api_key:key-1" {
				t.Errorf("%d replicas, %v: the fleet admitted %d for %s in a window, want %d", n, state, lt.Fleet.Count, lt.Fleet.Key, want)
			}
			if state == sim.StateLocal && lt.Replica.Count != 100 {
				t.Errorf("%d replicas: the busiest replica admitted %d in a window, want the limit 100", n, lt.Replica.Count)
			}
		}
	}
	for kind, l := range lanesOf(t, "multi-replica-trap") {
		if l.Peak.Ratio < 7.5 {
			t.Errorf("%v: as shipped the fleet admitted %.2f× the limit, want about 8×", kind, l.Peak.Ratio)
		}
	}
}

// classAdmitted counts, from a trace, the admissions of one class in [from, to).
type classAdmitted struct {
	class    string
	from, to time.Duration
	n        map[sim.LaneKind]int64
}

func (c *classAdmitted) Record(r *sim.TraceRecord) error {
	if r.Class == c.class && r.At >= c.from && r.At < c.to && (r.Event == sim.TraceAdmit || r.Event == sim.TraceDelay) {
		c.n[r.Lane]++
	}
	return nil
}

// autoscaler-attack: from 2 to 8 local replicas, the attacker's admissions per
// second grow 4× (sliding log exactly: 20 a second, then 80).
func TestAutoscalerAttackMakesItsPoint(t *testing.T) {
	before := &classAdmitted{class: "attacker", from: 10 * time.Second, to: 20 * time.Second, n: map[sim.LaneKind]int64{}}
	after := &classAdmitted{class: "attacker", from: 20 * time.Second, to: 30 * time.Second, n: map[sim.LaneKind]int64{}}
	runConfig(t, "autoscaler-attack", nil, sim.Options{Trace: before})
	runConfig(t, "autoscaler-attack", nil, sim.Options{Trace: after})
	if b, a := before.n[sim.LaneSlidingLog], after.n[sim.LaneSlidingLog]; b != 200 || a != 800 {
		t.Errorf("sliding log: the attacker got %d through from 10s to 20s and %d from 20s to 30s, want 200 and 800", b, a)
	}
	for kind, b := range before.n {
		if a := after.n[kind]; a < 3*b {
			t.Errorf("%v: the attacker got %d through before the fleet grew, %d after: want about 4×", kind, b, a)
		}
	}
}

// racy-store: the racy check over-admits several times the limit, the atomic
// one holds it exactly (sliding log) at half the added latency; the excess
// grows with the store's latency.
func TestRacyStoreMakesItsPoint(t *testing.T) {
	racy := runConfig(t, "racy-store", nil, sim.Options{})
	atomic := runConfig(t, "racy-store", func(c *sim.Config) { c.Topology.Store.Racy = false }, sim.Options{})
	if r, a := racy[sim.LaneSlidingLog], atomic[sim.LaneSlidingLog]; r.Peak.Ratio < 2 || a.Peak.Count != 50 {
		t.Errorf("sliding log: racy %.2f× the limit, atomic %d in a window; want at least 2×, and 50", r.Peak.Ratio, a.Peak.Count)
	}
	if r, a := racy[sim.LaneGCRA].Topology.StoreLatency.P50, atomic[sim.LaneGCRA].Topology.StoreLatency.P50; r != 10*time.Millisecond || a != 5*time.Millisecond {
		t.Errorf("store latency p50: racy %v, atomic %v; want 10ms and 5ms", r, a)
	}
	prev := int64(-1)
	for _, latency := range []time.Duration{0, time.Millisecond, 5 * time.Millisecond, 20 * time.Millisecond} {
		lanes := runConfig(t, "racy-store", func(c *sim.Config) { c.Topology.Store.Latency.Mean = latency }, sim.Options{})
		excess := lanes[sim.LaneSlidingLog].Admitted - atomic[sim.LaneSlidingLog].Admitted
		if excess <= prev && latency > 0 {
			t.Errorf("%v: racy excess %d, not above %d at a shorter latency", latency, excess, prev)
		}
		prev = excess
	}
}

// store-outage: while the store is down, login (closed) lets no one in, the
// stuffer included; search (local) admits some and refuses some; the health
// check (open) admits every probe.
func TestStoreOutageMakesItsPoint(t *testing.T) {
	for kind, l := range lanesOf(t, "store-outage") {
		byName := map[string]sim.LimitTopology{}
		for _, lt := range l.Topology.Limits {
			byName[lt.Limit] = lt
		}
		login, search, health := byName["login"], byName["search"], byName["health"]
		cls := func(lt sim.LimitTopology, name string) sim.OutageClass {
			for _, c := range lt.Classes {
				if c.Name == name {
					return c
				}
			}
			return sim.OutageClass{}
		}
		if s := cls(login, "stuffer"); s.Decided < 500 || s.Admitted != 0 || login.Unavailable.Closed != login.Unavailable.Open+login.Unavailable.Local+login.Unavailable.Closed {
			t.Errorf("%v: login during the outage: the stuffer made %d attempts and got %d in (%+v)", kind, s.Decided, s.Admitted, login.Unavailable)
		}
		if s := cls(search, "searchers"); search.Unavailable.Local == 0 || s.Admitted == 0 || s.Admitted == s.Decided {
			t.Errorf("%v: search during the outage: %d of %d admitted on the local fallback (%+v)", kind, s.Admitted, s.Decided, search.Unavailable)
		}
		if p := cls(health, "probes"); p.Decided != 90 || p.Admitted != p.Decided || health.Unavailable.Open != 90 {
			t.Errorf("%v: health during the outage: %d of %d probes admitted (%+v), want all 90", kind, p.Admitted, p.Decided, health.Unavailable)
		}
	}
}

// synced-counting: syncing every 100ms, 1s, 10s costs fewer store calls each
// time (one per replica per sync) and lets the fleet overshoot more.
func TestSyncedCountingMakesItsPoint(t *testing.T) {
	prevCalls, prevOver := int64(-1), int64(-1)
	for _, interval := range []time.Duration{100 * time.Millisecond, time.Second, 10 * time.Second} {
		lanes := runConfig(t, "synced-counting", func(c *sim.Config) { c.Limits[0].SyncInterval = interval }, sim.Options{})
		lt := lanes[sim.LaneSlidingLog].Topology.Limits[0]
		if want := int64(120*time.Second/interval) * 8; lt.StoreCalls != want {
			t.Errorf("every %v: %d store calls, want %d", interval, lt.StoreCalls, want)
		}
		if prevCalls >= 0 && (lt.StoreCalls >= prevCalls || lt.Overshoot <= prevOver) {
			t.Errorf("every %v: %d store calls and an overshoot of %d; a shorter interval made %d and %d", interval, lt.StoreCalls, lt.Overshoot, prevCalls, prevOver)
		}
		prevCalls, prevOver = lt.StoreCalls, lt.Overshoot
	}
}
