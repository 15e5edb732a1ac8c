package replay

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/importer"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// productScenario is a scenario of one limit (YAML, inline) and lanes, on
// clients that send bursts at known instants and steady traffic, retries
// off, from the start of 2026 (the log's origin, so calendar windows fall
// alike).
func productScenario(limit, lanes string) string {
	return `duration: 150s
start: 2026-01-01T00:00:00Z
limits:
  - ` + limit + `
lanes:
` + lanes + `
clients:
  - name: bursts
    count: 3
    identity: {ip: "192.0.2.{i}"}
    arrivals:
      - {kind: burst, at: 900ms, count: 20, spread: 100ms}
      - {kind: burst, at: 61s, count: 30}
      - {kind: idle_then_burst, idle: 20s, count: 15, spread: 2s}
  - name: steady
    count: 2
    identity: {ip: "198.51.100.{i}"}
    arrivals: [{kind: constant, rate: 7/s}]
  - name: random
    count: 2
    identity: {ip: "203.0.113.{i}"}
    arrivals: [{kind: poisson, rate: 4/s}]
`
}

// productCases run every product lane, some with their sections and lane
// options, each under a limit its product can say.
var productCases = []struct{ name, limit, lanes string }{
	{"per-second", "{name: per-ip, key: ip, limit: 5, window: 1s}", `  - kong
  - {name: kong-minute, algorithm: kong, kong: {minute: 40}}
  - {name: kong-clock, algorithm: kong, clock: 1ms, penalty: true}
  - nginx
  - {name: nginx-delay, algorithm: nginx, nginx: {rate: 5r/s, burst: 12, delay: 3}}
  - {name: nginx-nodelay, algorithm: nginx, nginx: {rate: 5r/s, burst: 12, nodelay: true}}
  - haproxy
  - {name: lb, algorithm: haproxy, haproxy: {period: 10s, limit: 30}}
  - envoy_local
  - {name: stepwise, algorithm: envoy_local, envoy_local: {max_tokens: 3, tokens_per_fill: 5, fill_interval: 1s, refill: stepwise}}
  - envoy_ratelimit
  - kong_advanced
  - traefik
  - {name: traefik-wait, algorithm: traefik, traefik: {average: 5, burst: 2}}
  - {name: tb-wait, algorithm: token_bucket, wait: 300ms}
  - aws_apigw`},
	{"per-minute", "{name: per-ip, key: ip, limit: 20, window: 60s}", `  - aws_waf
  - {name: waf, algorithm: aws_waf, aws_waf: {limit: 100, evaluation_window: 120s, evaluation_interval: 10s}}
  - cloudflare
  - {name: cf-ban, algorithm: cloudflare, ban: 3s}
  - kong
  - sliding_window_counter`},
	{"per-day", "{name: per-ip, key: ip, limit: 100, window: 24h}", `  - aws_quota
  - kong`},
}

// simulated runs the scenario in yaml (retries off), writes the first
// attempts of lane order as a JSON-lines log, and replays it with the
// scenario's limits, lanes and fleet: it returns the replay, every lane's
// verdicts by client in run, and each log line's client.
func simulated(t *testing.T, yaml, order string) (*Result, map[string]map[int][]algorithms.Verdict, []int) {
	t.Helper()
	s, err := scenarios.Parse("products.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	limits, lanes, err := FromScenario(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	cfg := *s.Config
	cfg.Clients = slices.Clone(cfg.Clients)
	var ids []sim.Identity
	for i := range cfg.Clients {
		cfg.Clients[i].Retry = sim.Retry{}
		for j := range cfg.Clients[i].Count {
			ids = append(ids, cfg.Clients[i].IdentityOf(j))
		}
	}
	tl := &identityLog{order: order, limit: "-", ids: ids, verdicts: map[string]map[int][]algorithms.Verdict{}}
	if _, err := sim.Run(context.Background(), cfg, sim.Options{Trace: tl}); err != nil {
		t.Fatal(err)
	}
	fleet, err := ScenarioFleet(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Replay(context.Background(), []Input{{Name: "products", R: bytes.NewReader(tl.log.Bytes())}},
		Options{Limits: limits, Lanes: lanes, Format: "json", Verdicts: true, Config: s.Config, Fleet: fleet})
	if err != nil {
		t.Fatal(err)
	}
	var clients []int
	for _, l := range bytes.Split(bytes.TrimSpace(tl.log.Bytes()), []byte("\n")) {
		var m struct{ Client int }
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatal(err)
		}
		clients = append(clients, m.Client)
	}
	return res, tl.verdicts, clients
}

// sameVerdicts compares every lane's verdicts, client by client, and returns
// the refusals and delays replay counted.
func sameVerdicts(t *testing.T, res *Result, want map[string]map[int][]algorithms.Verdict, clients []int) (refused, delayed int64) {
	t.Helper()
	for _, lane := range res.Limits[0].Lanes {
		got := map[int][]algorithms.Verdict{}
		for i, v := range lane.Verdicts {
			got[clients[i]] = append(got[clients[i]], algorithms.Verdict(v))
		}
		w := want[lane.Lane]
		if len(w) == 0 {
			t.Errorf("%s: run traced no verdicts", lane.Lane)
		}
		for c := range w {
			if !slices.Equal(got[c], w[c]) {
				t.Errorf("%s: client %d: replay %v, run %v", lane.Lane, c, got[c], w[c])
			}
		}
		refused += lane.Refused
		delayed += lane.Delayed
	}
	return refused, delayed
}

// TestProductLanesDecideAsRun: every product lane, with its section and lane
// options, decides every request of a log exactly as the same lane of rlsim
// run decided it on the same arrivals (admit, delay or refuse), client by
// client; the delays counted are the lanes' that delay (nginx's and a
// wait's), counted as delayed, not refused.
func TestProductLanesDecideAsRun(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range productCases {
		t.Run(tc.name, func(t *testing.T) {
			res, want, clients := simulated(t, productScenario(tc.limit, tc.lanes), "kong")
			refused, _ := sameVerdicts(t, res, want, clients)
			lanes := strings.Count(tc.lanes, "\n") + 1
			if len(res.Limits[0].Lanes) != lanes || len(clients) < 1000 || refused == 0 {
				t.Errorf("compared %d lanes over %d requests, %d refused: want %d lanes, 1000 requests, some refused",
					len(res.Limits[0].Lanes), len(clients), refused, lanes)
			}
			for _, lane := range res.Limits[0].Lanes {
				k, _ := sim.ParseLane(lane.Lane)
				seen[k.String()] = true
				switch lane.Lane {
				case "nginx", "nginx-delay", "tb-wait":
					if lane.Delayed == 0 {
						t.Errorf("%s delayed nothing", lane.Lane)
					}
				case "nginx-nodelay", "kong", "haproxy":
					if lane.Delayed != 0 {
						t.Errorf("%s delayed %d: it never waits a request", lane.Lane, lane.Delayed)
					}
				}
			}
		})
	}
	for _, p := range ProductLanes {
		if !seen[p] {
			t.Errorf("product lane %s is not compared", p)
		}
	}
}

// TestFleetDecidesAsRun: a scenario's topology — three replicas, round robin
// or hash routing, each placement — decides every request as rlsim run's
// fleet did on the same arrivals.
func TestFleetDecidesAsRun(t *testing.T) {
	for _, tc := range []struct{ name, limit, topology string }{
		{"local", "state: local", "{replicas: 3}"},
		{"divided", "local_limit: divided", "{replicas: 3}"},
		{"shared", "state: shared", "{replicas: 3}"},
		{"synced", "state: synced, sync_interval: 257ms", "{replicas: 3}"}, // no arrival on a sync instant: a run breaks that tie by scheduling order
		{"hash", "state: local", "{replicas: 3, routing: hash, hash_key: ip}"},
		{"random", "state: local", "{replicas: 3, routing: random}"}, // the scenario's seed, the run's stream
	} {
		t.Run(tc.name, func(t *testing.T) {
			yaml := `duration: 30s
limits:
  - {name: per-ip, key: ip, limit: 5, window: 1s, ` + tc.limit + `}
topology: ` + tc.topology + `
lanes: [fixed_window, sliding_log, token_bucket, gcra, nginx, kong, haproxy, traefik, {name: tw, algorithm: gcra, wait: 300ms}]
clients:
  - name: bursts
    count: 3
    identity: {ip: "192.0.2.{i}"}
    arrivals:
      - {kind: burst, at: 900ms, count: 20, spread: 100ms}
      - {kind: idle_then_burst, idle: 5s, count: 15, spread: 2s}
  - name: steady
    count: 2
    identity: {ip: "198.51.100.{i}"}
    arrivals: [{kind: constant, rate: 7/s}]
`
			res, want, clients := simulated(t, yaml, "kong")
			refused, _ := sameVerdicts(t, res, want, clients)
			if refused == 0 || res.Limits[0].Lanes[0].Fleet == nil {
				t.Errorf("%d refused, fleet %v: want refusals and the fleet's figures", refused, res.Limits[0].Lanes[0].Fleet)
			}
		})
	}
}

// TestConfigReplaysItsProductLanes: a product config's model (as a reader
// gives it: an nginx zone of 5r/s, burst 4, and its limit_req) imports as a
// scenario whose limits and product lanes replay takes, through the
// --scenario path; a problem of the model is a warning, and the lane's key
// table (the zone's size) is kept unbounded, with a warning.
func TestConfigReplaysItsProductLanes(t *testing.T) {
	m := &importer.Model{Product: "nginx", Files: []string{"nginx.conf"},
		Limits: []importer.Limit{{Name: "per_ip", Key: "ip", Limit: 5, Window: time.Second, Burst: 4, At: []importer.Origin{{File: "nginx.conf", Line: 3}}}},
		Lanes: []importer.Lane{{Name: "nginx", Algorithm: "nginx", Section: importer.Fields{{Key: "rate", Value: "5r/s"}, {Key: "burst", Value: int64(4)}},
			Options: importer.Fields{{Key: "keys", Value: int64(160000)}}}},
		Problems: []importer.Problem{{At: importer.Origin{File: "nginx.conf", Line: 9}, Message: "limit_conn is not a rate limit"}}}
	sc, warnings, err := imported("nginx.conf", m)
	if err != nil {
		t.Fatal(err)
	}
	limits, lanes, err := FromScenario(sc.Config)
	if err != nil {
		t.Fatal(err)
	}
	warnings = append(warnings, ScenarioWarnings(sc.Config)...)
	if len(limits) != 1 || limits[0].Policy.Limit != 5 || !slices.Equal(lanes, []string{"nginx"}) ||
		len(warnings) != 2 || warnings[0] != "nginx.conf:9: limit_conn is not a rate limit" || !strings.Contains(warnings[1], "not a table of 160000") {
		t.Fatalf("limits %v, lanes %v, warnings %q", limits, lanes, warnings)
	}
	// 10 lines at once: nginx passes burst+1 = 5, the first at once and 4
	// delayed (no delay= or nodelay), and refuses 5.
	var lines [][2]any
	for range 10 {
		lines = append(lines, [2]any{0, "192.0.2.1"})
	}
	res := replayLog(t, jsonLog(lines), Options{Limits: limits, Lanes: lanes, Config: sc.Config})
	if l := res.Limits[0].Lanes[0]; l.Refused != 5 || l.Delayed != 4 {
		t.Errorf("nginx: %d refused, %d delayed; want 5 and 4", l.Refused, l.Delayed)
	}
}
