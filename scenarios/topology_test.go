package scenarios

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Every problem of a topology is reported at once, each at its line and field.
func TestParseTopologyErrors(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want []string
	}{
		{
			name: "values out of range, unknown names, fields for another state",
			yaml: `limits:
  - limit: 5
    state: syncd
  - limit: 5
    key: ip
    state: local
    sync_interval: 1s
    on_store_error: closed
  - limit: 5
    key: user
    state: shared
    on_store_error: local
topology:
  replicas: 2000
  autoscaler:
    - at: 0s
      count: 0
  routing: sticky
  hash_key: ip
  store:
    timeout: 0s
    outages:
      - from: 5s
        to: 1s
` + okClient,
			want: []string{
				`f.yaml:3: limits[0].state: unknown value "syncd" (want local, shared, synced); did you mean "synced"?`,
				`f.yaml:7: limits[1].sync_interval: is not used by state local (it uses local_limit)`,
				`f.yaml:8: limits[1].on_store_error: is not used by state local (it uses local_limit)`,
				`f.yaml:16: topology.autoscaler[0].at: must be positive, got 0s`,
				`f.yaml:17: topology.autoscaler[0].count: must be positive, got 0`,
				`f.yaml:18: topology.routing: unknown value "sticky" (want round_robin, random, hash)`,
				`f.yaml:21: topology.store.timeout: must be positive, got 0s`,
			},
		},
		{
			name: "what only the whole config shows",
			yaml: `limits:
  - limit: 5
    state: shared
    on_store_error: local
topology:
  replicas: 2000
  store:
    outages:
      - from: 5s
        to: 1s
` + okClient,
			want: []string{
				`f.yaml:2: limits[0].fallback: on_store_error local needs a fallback policy (limit and window)`,
				`f.yaml:6: topology.replicas: must be 1 to 1000, got 2000`,
				`f.yaml:9: topology.store.outages[0]: outages must be in time order, apart, each with to after from (from 5s, to 1s)`,
			},
		},
		{
			name: "a breaker, a cache and a lease with no shared limit, out of range, on a racy store",
			yaml: `limits:
  - limit: 5
    state: local
topology:
  replicas: 2
  store:
    atomic: false
    breaker:
      failures: 1001
      window: 1s
      cooldown: 0s
      probes: 0
    refusal_cache: true
    lease: -1
` + okClient,
			want: []string{
				`f.yaml:11: topology.store.breaker.cooldown: must be positive, got 0s`,
				`f.yaml:12: topology.store.breaker.probes: must be positive, got 0`,
				`f.yaml:14: topology.store.lease: must not be negative, got -1`,
			},
		},
		{
			name: "remedies the whole config refuses",
			yaml: `limits:
  - limit: 5
    state: local
topology:
  replicas: 2
  store:
    atomic: false
    breaker:
      failures: 1001
      window: 1s
      cooldown: 1s
    refusal_cache: true
    lease: 3
` + okClient,
			want: []string{
				`f.yaml:8: topology.store.breaker: is only used with a shared limit (state shared): no limit calls the store on its decisions`,
				`f.yaml:9: topology.store.breaker.failures: must be 1 to 1000, got 1001`,
				`f.yaml:12: topology.store.refusal_cache: is only used with a shared limit (state shared): no limit calls the store on its decisions`,
				`f.yaml:13: topology.store.lease: leases need an atomic store (a lease is taken by one script)`,
				`f.yaml:13: topology.store.lease: is only used with a shared limit (state shared): no limit calls the store on its decisions`,
			},
		},
		{
			name: "a misspelt state says nothing of the fields it would use",
			yaml: "limits:\n  - limit: 5\n    state: shraed\n    sync_interval: 1s\ntopology:\n  replicas: 2\n" + okClient,
			want: []string{`f.yaml:3: limits[0].state: unknown value "shraed" (want local, shared, synced); did you mean "shared"?`},
		},
		{
			name: "a topology section written empty",
			yaml: "topology:\n" + okClient,
			want: []string{`f.yaml:1: topology: the section is empty: give at least replicas (or leave topology out)`},
		},
		{
			name: "topology fields of a limit without a topology",
			yaml: "limits:\n  - limit: 5\n    state: shared\n    sync_interval: 1s\n" + okClient,
			want: []string{
				`f.yaml:3: limits[0].state: is only used with a topology section (replicas and a store)`,
				`f.yaml:4: limits[0].sync_interval: is only used with a topology section (replicas and a store)`,
			},
		},
		{
			name: "a store's qualifiers without what they qualify, its bad numbers and changes",
			yaml: "limits:\n  - limit: 5\n    state: shared\ntopology:\n  store:\n    service: exponential\n    queue_limit: 3\n    eviction: allkeys-lru\n    shards: 65\n" +
				"    changes:\n      - at: 2s\n        down: true\n      - at: 1s\n        capacity: 5\n" + okClient,
			want: []string{
				`f.yaml:6: topology.store.service: is only used with a capacity`,
				`f.yaml:7: topology.store.queue_limit: is only used with a capacity`,
				`f.yaml:8: topology.store.eviction: is only used with a maxmemory`,
				`f.yaml:9: topology.store.shards: must be 1 to 64, got 65`,
				`f.yaml:13: topology.store.changes[1].at: changes must be in time order, apart, from 0s (1s)`,
			},
		},
		{
			name: "a synced limit without an interval, an autoscaler out of order",
			yaml: "limits:\n  - limit: 5\n    state: synced\ntopology:\n  replicas: 2\n  autoscaler:\n    - at: 20s\n      count: 4\n    - at: 10s\n      count: 8\n" + okClient,
			want: []string{
				`f.yaml:2: limits[0].sync_interval: a synced limit needs a sync interval of at least 1ms, got 0s`,
				`f.yaml:9: topology.autoscaler[1].at: steps must be in time order (10s is not after 20s)`,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("f.yaml", []byte(tc.yaml))
			if err == nil {
				t.Fatal("Parse accepted it")
			}
			if got := strings.Split(err.Error(), "\n"); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", err, strings.Join(tc.want, "\n"))
			}
		})
	}
}

// A topology section and the limits' placements read into sim's Config as written.
func TestParseTopology(t *testing.T) {
	s, err := Parse("f.yaml", []byte(`limits:
  - limit: 5
    state: shared
    on_store_error: local
    fallback:
      limit: 2
  - limit: 7
    key: user
    local_limit: divided
topology:
  replicas: 3
  autoscaler:
    - at: 10s
      count: 6
  routing: hash
  hash_key: user
  store:
    latency:
      mean: 2ms
      distribution: exponential
    atomic: false
    timeout: 40ms
    outages:
      - from: 1s
        to: 2s
`+okClient))
	if err != nil {
		t.Fatal(err)
	}
	c := s.Config
	want := sim.Topology{Replicas: []sim.ReplicaStep{{Count: 3}, {At: 10 * time.Second, Count: 6}}, Routing: sim.RoutingHash, HashKey: sim.KeyUser,
		Store: sim.Store{Latency: sim.Service{Kind: sim.ServiceExponential, Mean: 2 * time.Millisecond}, Racy: true, Timeout: 40 * time.Millisecond,
			Outages: []sim.Outage{{From: time.Second, To: 2 * time.Second}}}}
	if got := *c.Topology; got.Routing != want.Routing || got.HashKey != want.HashKey || got.Store.Racy != want.Store.Racy ||
		got.Store.Latency != want.Store.Latency || got.Store.Timeout != want.Store.Timeout || len(got.Replicas) != 2 ||
		got.Replicas[1] != want.Replicas[1] || got.Store.Outages[0] != want.Store.Outages[0] {
		t.Errorf("topology %+v, want %+v", got, want)
	}
	l0, l1 := c.Limits[0], c.Limits[1]
	if l0.State != sim.StateShared || l0.OnStoreError != sim.FailLocal || l0.Fallback.Limit != 2 || l0.Fallback.Window != time.Second ||
		l1.State != sim.StateLocal || l1.LocalLimit != sim.LocalDivided {
		t.Errorf("limits %+v, %+v", l0, l1)
	}
	assertRoundTrip(t, s)
}
