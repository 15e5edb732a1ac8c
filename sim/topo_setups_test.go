package sim

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// contractWorld is a world of the differential corpus with a topology, as
// diffTopology draws it, without the contracts diffContract adds and
// without overrides.
func contractWorld(seed uint64) Config {
	c := diffWorld(seed, shapeTopology)
	if c.Topology == nil {
		return c
	}
	c.Topology.Stores = nil
	c.Overrides = nil // an override of a kind is not a named twin's
	for i := range c.Limits {
		c.Limits[i].Store = ""
	}
	for i := range c.Variants {
		c.Variants[i].Topology, c.Variants[i].Placements = nil, nil
	}
	return c
}

// Two exact twins (DESIGN's reference twins): a lane whose own contract is
// the run's decides as the run's lane, verdict for verdict; and shared
// limits moved to a named store with topology.store's settings decide as
// on topology.store, in every lane, though that store is then simulated as
// a real one (shardStore, not latencyStore).
func TestOwnContractTwinsDecideAsTheRun(t *testing.T) {
	compared := 0
	for seed := uint64(1); seed <= 60 && compared < 12; seed++ {
		c := contractWorld(seed)
		if c.Topology == nil || !slices.ContainsFunc(c.Limits, func(l Limit) bool { return l.State == StateShared }) || c.Validate() != nil {
			continue
		}
		base := runVerdicts(t, c)

		twin := c
		twin.Lanes = append(slices.Clone(c.LanesRun()), c.LanesRun()[0])
		twin.Variants = make([]Variant, len(twin.Lanes))
		copy(twin.Variants, c.Variants)
		topo := *c.Topology
		places := make([]Placement, len(c.Limits))
		for j, l := range c.Limits {
			places[j] = l.Placement()
		}
		last := len(twin.Lanes) - 1
		twin.Variants[last] = Variant{Name: "twin", Topology: &topo, Placements: &places}
		if len(c.Variants) > 0 {
			twin.Variants[last].Options, twin.Variants[last].Product = c.Variants[0].Options, c.Variants[0].Product
		}
		got := runVerdicts(t, twin)
		if got[last] != base[0] {
			t.Errorf("seed %d: the twin lane's verdicts %016x, lane 0's %016x", seed, got[last], base[0])
		}

		named := c
		nt := *c.Topology
		nt.Stores = []NamedStore{{Name: "abuse", Store: Store{Latency: nt.Store.Latency, Timeout: nt.Store.Timeout, Outages: nt.Store.Outages}}}
		named.Topology = &nt
		named.Limits = slices.Clone(c.Limits)
		for i := range named.Limits {
			if named.Limits[i].State == StateShared {
				named.Limits[i].Store = "abuse"
			}
		}
		if err := named.Validate(); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if got := runVerdicts(t, named); !slices.Equal(got, base) {
			t.Errorf("seed %d: on a named store the verdicts are %x, on topology.store %x", seed, got, base)
		}
		compared++
	}
	if compared < 8 {
		t.Fatalf("only %d worlds compared", compared)
	}
}

// runVerdicts runs c and returns each lane's verdict hash.
func runVerdicts(t *testing.T, c Config) []uint64 {
	t.Helper()
	r, err := Run(context.Background(), c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []uint64
	for _, l := range r.Lanes {
		out = append(out, l.Verdicts)
	}
	return out
}

// splitWorld is members on /api (limit api, on topology.store, up and
// instantaneous) and an attacker on /login (limit login, on the named store
// abuse: a 5ms round trip, a 1ms timeout, down over [2s, 4s)), 10 a second
// each for 6s, on 2 replicas.
func splitWorld() Config {
	rate := Rate{Count: 10, Per: time.Second}
	return Config{
		Duration: 6 * time.Second, Seed: 1, Lanes: []LaneKind{LaneFixedWindow},
		Limits: []Limit{
			{Name: "login", Key: KeyIP, Endpoint: "/login", State: StateShared, OnStoreError: FailClosed, Store: "abuse",
				Policy: algorithms.Policy{Limit: 1000, Window: time.Second}},
			{Name: "api", Key: KeyUser, Endpoint: "/api", State: StateShared, OnStoreError: FailClosed,
				Policy: algorithms.Policy{Limit: 1000, Window: time.Second}}},
		Clients: []ClientGroup{
			{Name: "members", Count: 1, Identity: Identity{Endpoint: "/api"}, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: rate}}},
			{Name: "attacker", Count: 1, Identity: Identity{Endpoint: "/login"}, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: rate}}}},
		Topology: &Topology{Replicas: replicas(2), Stores: []NamedStore{{Name: "abuse", Store: Store{
			Latency: Service{Mean: 5 * time.Millisecond}, Timeout: time.Millisecond,
			Outages: []Outage{{From: 2 * time.Second, To: 4 * time.Second}}}}}},
	}
}

// Each store keeps its own settings and figures: every call to abuse fails
// (refused in its outage, timed out past its 1ms timeout otherwise) and
// login, failing closed, refuses every attempt; topology.store answers every
// api call, so members are all admitted. The shards say so: topology.store's
// shard 0, abuse's shard 1.
func TestNamedStoresKeepTheirOwnSettings(t *testing.T) {
	l := mustRun(t, splitWorld(), Options{}).Lanes[0]
	sh := l.Topology.Shards
	if len(sh) != 2 || sh[0].Store != "" || sh[1].Store != "abuse" {
		t.Fatalf("shards %+v, want topology.store's then abuse's", sh)
	}
	// 60 attempts each: 20 in [2s, 4s), refused; the other 40 time out.
	if sh[1].Calls != 60 || sh[1].Refused != 20 || sh[1].TimedOut != 40 {
		t.Errorf("abuse: %d calls, %d refused, %d timed out; want 60, 20 and 40", sh[1].Calls, sh[1].Refused, sh[1].TimedOut)
	}
	if sh[0].Calls != 60 || sh[0].Refused+sh[0].TimedOut != 0 {
		t.Errorf("topology.store: %d calls, %d failed; want 60 and none", sh[0].Calls, sh[0].Refused+sh[0].TimedOut)
	}
	for _, c := range l.Classes {
		want := map[string]int64{"members": 60, "attacker": 0}[c.Name]
		if c.Admitted != want {
			t.Errorf("%s: %d admitted, want %d", c.Name, c.Admitted, want)
		}
	}
	for _, p := range l.Topology.Phases {
		if (p.Kind == PhaseStoreTimeouts || p.Kind == PhaseStoreRefusing) && p.Shard != 1 {
			t.Errorf("phase %v on shard %d: only abuse (shard 1) failed", p.Kind, p.Shard)
		}
	}
}

// Validation names each problem of the named stores and the lanes' own
// contracts at its field.
func TestNamedStoreAndLaneSetupErrors(t *testing.T) {
	tests := []struct {
		name  string
		edit  func(c *Config)
		field string
	}{
		{"unknown store", func(c *Config) { c.Limits[0].Store = "abus" }, "limits[0].store"},
		{"store on a local limit", func(c *Config) { c.Limits[1].State, c.Limits[1].Store = StateLocal, "abuse" }, "limits[1].store"},
		{"two stores for one client", func(c *Config) { c.Limits[1].Endpoint = "" }, "limits[1].store"},
		{"bad name", func(c *Config) { c.Topology.Stores[0].Name = "Abuse"; c.Limits[0].Store = "Abuse" }, "topology.stores[0].name"},
		{"a breaker of its own", func(c *Config) {
			c.Topology.Stores[0].Store.Breaker = Breaker{Failures: 1, Window: 1, Cooldown: 1, Probes: 1}
		}, "topology.stores[0].breaker"},
		{"negative capacity", func(c *Config) { c.Topology.Stores[0].Store.Capacity = -1 }, "topology.stores[0].capacity"},
		{"too many shards in all", func(c *Config) { c.Topology.Store.Shards, c.Topology.Stores[0].Store.Shards = 40, 40 }, "topology.stores"},
		{"a lane's bad breaker", func(c *Config) {
			t := *c.Topology
			t.Store.Breaker = Breaker{Failures: 2000, Window: time.Second, Cooldown: time.Second, Probes: 1}
			c.Lanes = []LaneKind{LaneFixedWindow, LaneFixedWindow}
			c.Variants = []Variant{{}, {Name: "contract", Topology: &t}}
		}, "variants[1].topology.store.breaker.failures"},
		{"a lane's own replicas", func(c *Config) {
			t := *c.Topology
			t.Replicas = replicas(3)
			c.Lanes = []LaneKind{LaneFixedWindow, LaneFixedWindow}
			c.Variants = []Variant{{}, {Name: "contract", Topology: &t}}
		}, "variants[1].topology"},
		{"a lane's placement on no store", func(c *Config) {
			p := []Placement{c.Limits[0].Placement(), c.Limits[1].Placement()}
			p[1].Store = "nowhere"
			c.Lanes = []LaneKind{LaneFixedWindow, LaneFixedWindow}
			c.Variants = []Variant{{}, {Name: "contract", Placements: &p}}
		}, "variants[1].limits[1].store"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := splitWorld()
			tc.edit(&c)
			var fe FieldErrors
			if err := c.Validate(); !errors.As(err, &fe) || !slices.ContainsFunc(fe, func(e FieldError) bool { return e.Field == tc.field }) {
				t.Errorf("Validate() = %v, want an error at %s", err, tc.field)
			}
		})
	}
	if err := splitWorld().Validate(); err != nil {
		t.Errorf("the world itself: %v", err)
	}
}

// Each store has its own memory: topology.store with room for no key
// refuses every api write (noeviction), abuse, unbounded and up, takes every
// login write; the refused writes are all on topology.store's shard.
func TestNamedStoresKeepTheirOwnMemory(t *testing.T) {
	c := splitWorld()
	c.Topology.Store.MaxMemory = 1
	c.Topology.Stores[0].Store = Store{}
	l := mustRun(t, c, Options{}).Lanes[0]
	sh := l.Topology.Shards
	if len(sh) != 2 || sh[0].RefusedWrites != 60 || sh[1].RefusedWrites != 0 || sh[1].KeysPeak != 1 {
		t.Errorf("shards %+v: want topology.store's 60 writes refused, abuse's none and its one key held", sh)
	}
	for _, c := range l.Classes {
		want := map[string]int64{"members": 0, "attacker": 60}[c.Name]
		if c.Admitted != want {
			t.Errorf("%s: %d admitted, want %d", c.Name, c.Admitted, want)
		}
	}
}

// Health probes call the store of the shared limit that counts them: with
// the health limit on abuse (every call failing) every probe fails, closed,
// and the replicas leave the rotation, though topology.store answers.
func TestProbesCallTheirLimitsStore(t *testing.T) {
	c := splitWorld()
	c.Limits = append(c.Limits, Limit{Name: "health", Key: KeyEndpoint, Endpoint: "/health", State: StateShared, OnStoreError: FailClosed,
		Store: "abuse", Policy: algorithms.Policy{Limit: 1000, Window: time.Second}})
	c.Topology.Health = &HealthCheck{Interval: time.Second, UnhealthyAfter: 1, HealthyAfter: 1}
	if err := c.Validate(); err != nil {
		t.Fatal(err)
	}
	l := mustRun(t, c, Options{}).Lanes[0]
	h := l.Topology.Health
	if h == nil || h.Probes == 0 || h.Failed != h.Probes || h.NoHealthy == 0 {
		t.Errorf("health %+v: want every probe failed and the site down", h)
	}
	if sh := l.Topology.Shards; sh[0].Refused+sh[0].TimedOut != 0 {
		t.Errorf("topology.store failed %d calls; only abuse fails", sh[0].Refused+sh[0].TimedOut)
	}
}
