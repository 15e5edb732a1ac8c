package scenarios

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// contractBase is a login limit and an api limit, both shared, a store and a
// named store; lanes follow.
const contractBase = `limits:
  - name: login
    key: ip
    endpoint: /login
    limit: 5
    window: 1m
    state: shared
  - name: api
    key: user
    endpoint: /api
    limit: 20
    state: shared
topology:
  replicas: 2
  store:
    capacity: 200
    timeout: 50ms
  stores:
    - name: abuse
      capacity: 100
clients:
  - name: members
    identity:
      endpoint: /api
    arrivals:
      - kind: constant
        rate: 5/s
  - name: attacker
    identity:
      endpoint: /login
    arrivals:
      - kind: constant
        rate: 5/s
`

// A lane's own stores and placements read into its variant: the file's
// store with the lane's fields in place, the lane's named stores, and each
// limit's placement (the chain's where the lane writes none); the scenario
// writes back to the same file.
func TestParseALanesOwnContract(t *testing.T) {
	s, err := Parse("c.yaml", []byte(contractBase+`lanes:
  - {name: deployed, algorithm: token_bucket}
  - name: contract
    algorithm: token_bucket
    limits:
      - {store: abuse, on_store_error: local, fallback: {limit: 5, window: 1m}}
      - {on_store_error: closed}
    topology:
      store:
        breaker: {failures: 5, window: 1s, cooldown: 5s}
      stores:
        - {name: abuse, capacity: 300, timeout: 20ms}
`))
	if err != nil {
		t.Fatal(err)
	}
	c := s.Config
	if c.Topology.Stores[0].Store.Capacity != 100 || c.Limits[0].Store != "" {
		t.Errorf("the file's stores %+v, login on %q", c.Topology.Stores, c.Limits[0].Store)
	}
	v := c.Variants[1]
	if v.Topology == nil || v.Placements == nil {
		t.Fatalf("the contract lane has no contract of its own: %+v", v)
	}
	st := v.Topology.Store
	if st.Capacity != 200 || st.Timeout != 50e6 || st.Breaker.Failures != 5 || st.Breaker.Probes != 1 {
		t.Errorf("the lane's store %+v: want the file's capacity and timeout, its own breaker", st)
	}
	if ns := v.Topology.Stores; len(ns) != 1 || ns[0].Store.Capacity != 300 || ns[0].Store.Timeout != 20e6 {
		t.Errorf("the lane's stores %+v, want its own abuse", ns)
	}
	p := *v.Placements
	if p[0].Store != "abuse" || p[0].OnStoreError != sim.FailLocal || p[0].Fallback.Limit != 5 || p[1].OnStoreError != sim.FailClosed || p[1].State != sim.StateShared {
		t.Errorf("placements %+v", p)
	}
	if c.Variants[0].Topology != nil || len(c.Overrides) != 0 {
		t.Errorf("the deployed lane has its own contract %+v, or the placements made overrides %+v", c.Variants[0], c.Overrides)
	}
	assertRoundTrip(t, s)
}

// Every problem of a named store or a lane's contract is reported at once,
// at its file's line and field.
func TestALanesOwnContractErrors(t *testing.T) {
	src := contractBase + `lanes:
  - token_bucket
  - name: contract
    algorithm: token_bucket
    limits:
      - store: nowhere
      - fallback: {limit: 5}
    topology:
      replicas: 3
      store:
        breaker: {failures: 2000, window: 1s, cooldown: 5s}
      stores:
        - {name: abuse, atomic: false}
`
	_, err := Parse("c.yaml", []byte(src))
	if err == nil {
		t.Fatal("Parse accepted it")
	}
	for _, want := range []string{
		"c.yaml:39: lanes[1].limits[0].store: no store is named nowhere (the stores: abuse)",
		"c.yaml:40: lanes[1].limits[1].fallback: is only used with on_store_error local",
		`c.yaml:42: lanes[1].topology.replicas: unknown field (fields here: store, stores)`,
		`c.yaml:46: lanes[1].topology.stores[0].atomic: unknown field`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("errors:\n%v\nwant %q", err, want)
		}
	}
	// Once the file reads, sim's checks of the lane's store, at their lines.
	src = strings.Replace(strings.Replace(src, "      replicas: 3\n", "", 1), "        - {name: abuse, atomic: false}\n", "        - {name: abuse, shards: 100}\n", 1)
	src = strings.Replace(strings.Replace(src, "      - store: nowhere\n", "      - store: abuse\n", 1), "      - fallback: {limit: 5}\n", "      - {}\n", 1)
	_, err = Parse("c.yaml", []byte(src))
	for _, want := range []string{
		"c.yaml:43: lanes[1].topology.store.breaker.failures: must be 1 to 1000, got 2000",
		"c.yaml:45: lanes[1].topology.stores[0].shards: must be 1 to 64, got 100",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("errors:\n%v\nwant %q", err, want)
		}
	}
}

// The chain's errors of a named store: an unknown store, one on a local
// limit, and one client group counted on two stores.
func TestNamedStoreErrors(t *testing.T) {
	for _, tc := range []struct{ name, from, to, want string }{
		{"unknown", "    state: shared\n  - name: api", "    state: shared\n    store: abus\n  - name: api",
			"c.yaml:8: limits[0].store: no store is named abus (the stores: abuse)"},
		{"local", "    limit: 20\n    state: shared", "    limit: 20\n    store: abuse",
			"c.yaml:12: limits[1].store: is not used by state local (it uses local_limit)"},
		{"two stores", "    endpoint: /api\n", "",
			"limits[1].store: clients[1] is counted by limits[0] on topology.store and by this limit on store abuse"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(contractBase, tc.from, tc.to, 1)
			if tc.name == "two stores" {
				src = strings.Replace(src, "    state: shared\n", "    state: shared\n    store: abuse\n", 2)
				src = strings.Replace(src, "    store: abuse\n  - name: api", "  - name: api", 1)
			}
			_, err := Parse("c.yaml", []byte(src))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse = %v, want %q\n%s", err, tc.want, src)
			}
		})
	}
}

// --set reaches a lane's placement and its own store.
func TestSetReachesALanesContract(t *testing.T) {
	src := contractBase + "lanes:\n  - token_bucket\n  - name: contract\n    algorithm: token_bucket\n    limits: [{store: abuse}]\n    topology:\n      store:\n        breaker: {failures: 5, window: 1s, cooldown: 5s}\n"
	s, err := Parse("c.yaml", []byte(src), mustSets(t, "lanes[1].limits[0].on_store_error=closed", "lanes[1].topology.store.breaker.failures=7")...)
	if err != nil {
		t.Fatal(err)
	}
	v := s.Config.Variants[1]
	if p := (*v.Placements)[0]; p.OnStoreError != sim.FailClosed || p.Store != "abuse" {
		t.Errorf("placement %+v, want closed on abuse", p)
	}
	if v.Topology.Store.Breaker.Failures != 7 {
		t.Errorf("breaker %+v, want failures 7", v.Topology.Store.Breaker)
	}
}

// A lane's own divided fallback with fewer units than replicas is warned of
// at its line, as the chain's is.
func TestWarningsOfALanesOwnDividedFallback(t *testing.T) {
	src := contractBase + "lanes:\n  - token_bucket\n  - name: contract\n    algorithm: token_bucket\n    limits:\n      - {}\n      - {on_store_error: local, fallback: {limit: 1, window: 1s, divided: true}}\n"
	s, err := Parse("c.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	w := Warnings(s)
	if len(w) != 1 || !strings.Contains(w.Error(), "c.yaml:40: lanes[1].limits[1].fallback.divided: warning: 1 per 1s divided over 2 replicas leaves 1 of them a share of nothing") {
		t.Errorf("warnings %v", w)
	}
}
