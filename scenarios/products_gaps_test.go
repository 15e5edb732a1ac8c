package scenarios

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// docScenario is the whole-scenario YAML example of docs/products.md whose
// description is desc.
func docScenario(t *testing.T, desc string) *Scenario {
	t.Helper()
	doc, err := os.ReadFile("../docs/products.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range yamlBlock.FindAllSubmatch(doc, -1) {
		if strings.HasPrefix(string(b[1]), "description: "+desc+"\n") {
			s, err := Parse("docs/products.md", b[1])
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}
	t.Fatalf("docs/products.md has no example %q", desc)
	return nil
}

// verdictLog keeps, per lane, each attempt's verdict as "at class verdict",
// the verdict being "admit" or the refusing limit's name.
type verdictLog map[string][]string

func (v verdictLog) Record(r *sim.TraceRecord) error {
	switch r.Event {
	case sim.TraceAdmit, sim.TraceDelay:
		v[r.LaneName] = append(v[r.LaneName], fmt.Sprintf("%v %s admit", r.At, r.Class))
	case sim.TraceRefuse:
		v[r.LaneName] = append(v[r.LaneName], fmt.Sprintf("%v %s %s", r.At, r.Class, r.Limit))
	}
	return nil
}

func runVerdicts(t *testing.T, cfg sim.Config) (verdictLog, sim.Result) {
	t.Helper()
	log := verdictLog{}
	r, err := sim.Run(context.Background(), cfg, sim.Options{Trace: log})
	if err != nil {
		t.Fatal(err)
	}
	return log, r
}

// Envoy's LocalRateLimiterImpl::requestAllowed (local_ratelimit_impl.cc,
// commit 5a6c7aa8): matched descriptors slowest fill first, each takes a
// token, the first without one refuses and the ones before keep theirs; then
// the default bucket. The verdicts, by hand (buckets start full, refill over a
// few ms stays far below a token):
//
//	login 2, alice 3, bob 3, default 4
//	0ms alice  login 1, alice 2, default 3: admit
//	1ms alice  login 0, alice 1, default 2: admit
//	2ms alice  login empty: refused by login (nothing else taken)
//	3ms bob    bob 2, default 1: admit (login does not match search)
//	4ms bob    bob 1, default 0: admit
//	5ms bob    bob 0 taken, default empty: refused by default
//	6ms bob    bob empty: refused by per-user
//	1.5s alice login 1.499, alice 3 (full), default 4: admit
//
// Under all_or_nothing bob's token at 5ms is not taken, so at 6ms default
// refuses him, not per-user.
func TestEnvoyDescriptorsAndDefaultBucket(t *testing.T) {
	s := docScenario(t, "Envoy local rate limit, two descriptors and the default bucket")
	want := []string{"0s alice admit", "1ms alice admit", "2ms alice login", "3ms bob admit", "4ms bob admit",
		"5ms bob default", "6ms bob per-user", "1.5s alice admit"}
	for _, mode := range []sim.ChainMode{sim.ChainChargeUntilRefused, sim.ChainAllOrNothing} {
		cfg := *s.Config
		cfg.Chain = mode
		log, _ := runVerdicts(t, cfg)
		got := log["envoy_local"]
		w := append([]string(nil), want...)
		if mode == sim.ChainAllOrNothing {
			w[6] = "6ms bob default"
		}
		if strings.Join(got, "; ") != strings.Join(w, "; ") {
			t.Errorf("chain %v: verdicts\n%s\nwant\n%s", mode, strings.Join(got, "; "), strings.Join(w, "; "))
		}
		// Without a trace (the lane's fast paths), the same counts.
		r, err := sim.Run(context.Background(), cfg, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		l, by := r.Lanes[0], map[string]int64{}
		for _, c := range l.RefusedBy {
			by[c.Limit] = c.Count
		}
		wantPerUser := int64(1)
		if mode == sim.ChainAllOrNothing {
			wantPerUser = 0
		}
		if l.Admitted != 5 || l.Refused != 3 || by["login"] != 1 || by["per-user"] != wantPerUser || by["default"] != 3-1-wantPerUser {
			t.Errorf("chain %v, no trace: admitted %d refused %d by %v, want 5, 3 (login 1, per-user %d)", mode, l.Admitted, l.Refused, by, wantPerUser)
		}
	}
}

// Kong 3.9.3's policies as the limit's state, on 3 pods behind round robin
// (docs/products.md's table). A client sends 6 requests in the first second
// (2 to each pod) and 3 at 2s (1 each), all in one minute of a limit of 3 a
// minute. By hand:
//
//	local (policy local):    each pod admits its 2, then its 1 (3 of 3): 9, 3× the limit
//	shared (cluster, redis with sync_rate -1): the store admits 3, refuses 6: 1× the limit
//	synced 1s (redis, sync_rate 1): each pod admits its 2 before the first
//	sync; at 1s the store holds 6, so at 2s every pod refuses: 6
//	shared, store down, fault_tolerant true (open): 9 (nothing counts, every request passes)
//	shared, store down, fault_tolerant false (closed): 0
func TestKongPoliciesOnTheTopology(t *testing.T) {
	base := "duration: 3s\nlimits: [{name: per-consumer, key: api_key, limit: 3, window: 1m, %s}]\n" +
		"topology: {replicas: 3, routing: round_robin%s}\nlanes: [{name: kong, algorithm: kong, kong: {minute: 3}}]\n" +
		"clients: [{identity: {api_key: key-1}, arrivals: [{kind: burst, at: 0s, count: 6, spread: 600ms}, {kind: burst, at: 2s, count: 3, spread: 300ms}]}]\n"
	down := ", store: {outages: [{from: 0s, to: 10s}]}"
	for _, tc := range []struct {
		name, limit, store string
		want               int64
	}{
		{"local", "state: local", "", 9},
		{"shared", "state: shared", "", 3},
		{"synced 1s", "state: synced, sync_interval: 1s", "", 6},
		{"fault_tolerant true", "state: shared, on_store_error: open", down, 9},
		{"fault_tolerant false", "state: shared, on_store_error: closed", down, 0},
	} {
		s, err := Parse("kong.yaml", []byte(fmt.Sprintf(base, tc.limit, tc.store)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if l := r.Lanes[0]; l.Admitted != tc.want || l.Attempts != 9 {
			t.Errorf("%s: admitted %d of %d, want %d of 9", tc.name, l.Admitted, l.Attempts, tc.want)
		}
	}
}

// API Gateway's levels, layered ("Throttle requests to your REST APIs"): a
// request passes the method's, the stage's and the account's buckets, each a
// token bucket starting full. By hand:
//
//	0, 1, 2ms pets     stage 3 → 0 (method does not count pets): admit
//	3ms orders         method 2, stage 0.01: refused by stage
//	500ms orders       stage refilled to 3 (10/s), method 2: admit (method 1, stage 2)
//	501ms orders       method 1, stage 2.01: admit (method 0, stage 1.01)
//	502ms orders       method 0.002, stage 1.02: refused by method
//
// Under charge_until_refused the 3ms request keeps method's token: method
// holds 1 + 0.994 at 500ms, so 501ms is refused by method already.
func TestAWSLayeredThrottles(t *testing.T) {
	s := docScenario(t, "AWS API Gateway's method, stage and account throttles, layered")
	want := []string{"0s pets admit", "1ms pets admit", "2ms pets admit", "3ms orders stage",
		"500ms orders admit", "501ms orders admit", "502ms orders method"}
	for _, mode := range []sim.ChainMode{sim.ChainAllOrNothing, sim.ChainChargeUntilRefused} {
		cfg := *s.Config
		cfg.Chain = mode
		log, _ := runVerdicts(t, cfg)
		w := append([]string(nil), want...)
		if mode == sim.ChainChargeUntilRefused {
			w[5] = "501ms orders method"
		}
		if got := strings.Join(log["aws_apigw"], "; "); got != strings.Join(w, "; ") {
			t.Errorf("chain %v: verdicts\n%s\nwant\n%s", mode, got, strings.Join(w, "; "))
		}
	}
}

// A usage plan quota's offset is taken from the initial period only
// (QuotaSettings.offset). A day's quota of 5 with offset 2, from 23:59:58
// UTC: 4 requests at 0 meet an allowance of 3 (3 admitted, 1 refused); 6 at
// 3s, the next day, meet 5 (5 admitted, 1 refused). An offset of the limit or
// more, or below 0, is refused.
func TestAWSQuotaOffset(t *testing.T) {
	src := "duration: 4s\nstart: 2026-12-01T23:59:58Z\nlimits: [{key: api_key, limit: 5, window: 24h}]\n" +
		"lanes: [{name: plan, algorithm: aws_quota, aws_quota: {offset: %d}}]\n" +
		"clients: [{arrivals: [{kind: burst, at: 0s, count: 4}, {kind: burst, at: 3s, count: 6}]}]\n"
	s, err := Parse("q.yaml", []byte(fmt.Sprintf(src, 2)))
	if err != nil {
		t.Fatal(err)
	}
	assertRoundTrip(t, s)
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l := r.Lanes[0]; l.Admitted != 8 || l.Refused != 2 {
		t.Errorf("offset 2: admitted %d refused %d, want 8 and 2 (3 of 4 in the initial day, 5 of 6 in the next)", l.Admitted, l.Refused)
	}
	for _, bad := range []int{5, 6, -1} {
		if _, err := Parse("q.yaml", []byte(fmt.Sprintf(src, bad))); err == nil || !strings.Contains(err.Error(), "q.yaml:4: lanes[0]") || !strings.Contains(err.Error(), "offset") {
			t.Errorf("offset %d of a limit of 5: %v, want refused at lanes[0] naming the offset", bad, err)
		}
	}
}

// An nginx lane's full zone evicts its least recently used key whatever it
// counted (nginx 1.22.1 ngx_http_limit_req_expire(ctx, 0), lines 497, 633–695),
// unless the lane says another when_full. A zone of one key, 1r/s, burst=0:
// a at 0 passes (a new key stores excess 0); b at 10ms finds the zone full of
// a, not drained (10 of 1000 milli-requests): nginx frees a and b passes; a
// at 20ms is new again and passes. With when_full: evict_idle, b is refused
// (a is not idle) and a at 20ms computes 0 − 20 + 1000 = 980 > 0: refused.
func TestNginxFullZoneEvictsByDefault(t *testing.T) {
	src := "duration: 1s\nlimits: [{key: ip, limit: 1, window: 1s, burst: 1}]\nlanes: [{name: edge, algorithm: nginx, keys: 1%s}]\n" +
		"clients:\n  - {name: a, identity: {ip: a}, arrivals: [{kind: burst, at: 0s, count: 1}, {kind: burst, at: 20ms, count: 1}]}\n" +
		"  - {name: b, identity: {ip: b}, arrivals: [{kind: burst, at: 10ms, count: 1}]}\n"
	for _, tc := range []struct {
		whenFull string
		want     string
	}{
		{"", "0s a admit; 10ms b admit; 20ms a admit"},
		{", when_full: evict", "0s a admit; 10ms b admit; 20ms a admit"},
		{", when_full: evict_idle", "0s a admit; 10ms b ip; 20ms a ip"},
	} {
		s, err := Parse("nginx.yaml", []byte(fmt.Sprintf(src, tc.whenFull)))
		if err != nil {
			t.Fatal(err)
		}
		assertRoundTrip(t, s)
		log, _ := runVerdicts(t, *s.Config)
		if got := strings.Join(log["edge"], "; "); got != tc.want {
			t.Errorf("keys: 1%s: verdicts %s, want %s", tc.whenFull, got, tc.want)
		}
	}
}

// near_limit_ratio: 10 a second with a ratio of 0.5 (threshold ⌊10×0.5⌋ = 5)
// and 12 hits in a second count the 6th to the 10th: 5; with the default 0.8,
// the 9th and 10th: 2. In a topology of 2 replicas the shared limit's store
// counts the hits of both: the same 12 hits, the same figures. A ratio outside
// (0, 1] is refused at its field.
func TestEnvoyNearLimitRatio(t *testing.T) {
	src := "duration: 1s\nlimits: [{name: api, key: ip, limit: 10, window: 1s%s}]\n%s" +
		"lanes: [{name: rls, algorithm: envoy_ratelimit, envoy_ratelimit: {%s}}]\nclients: [{arrivals: [{kind: burst, count: 12}]}]\n"
	for _, tc := range []struct {
		section, state, topo string
		want                 int64
	}{
		{"near_limit_ratio: 0.5", "", "", 5},
		{"shadow_mode: false", "", "", 2},
		{"near_limit_ratio: 0.5", ", state: shared", "topology: {replicas: 2}\n", 5},
		{"near_limit_ratio: 1", "", "", 0},
	} {
		s, err := Parse("rls.yaml", []byte(fmt.Sprintf(src, tc.state, tc.topo, tc.section)))
		if err != nil {
			t.Fatalf("%s: %v", tc.section, err)
		}
		assertRoundTrip(t, s)
		r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if n := r.Lanes[0].NearLimit; len(n) != 1 || n[0] != (sim.LimitCount{Limit: "api", Count: tc.want}) {
			t.Errorf("%s%s: near_limit %v, want api %d", tc.section, tc.state, n, tc.want)
		}
	}
	for _, bad := range []string{"0", "-0.1", "1.5"} {
		_, err := Parse("rls.yaml", []byte(fmt.Sprintf(src, "", "", "near_limit_ratio: "+bad)))
		if bad == "0" { // 0 is the default
			if err != nil {
				t.Errorf("near_limit_ratio 0 (the default): %v", err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "rls.yaml:3: lanes[0].envoy_ratelimit.near_limit_ratio:") {
			t.Errorf("near_limit_ratio %s: %v, want refused at its field", bad, err)
		}
	}
}

// failure_mode_deny is the shared limits' on_store_error: true agrees with
// closed, false with open (the default); a disagreement, or no shared limit
// at all, is refused naming both fields.
func TestEnvoyFailureModeDeny(t *testing.T) {
	src := "duration: 1s\nlimits: [{name: api, key: ip, limit: 10, window: 1s%s}]\n%s" +
		"lanes: [{name: rls, algorithm: envoy_ratelimit, envoy_ratelimit: {failure_mode_deny: %v}}]\nclients: [{arrivals: [{kind: burst, count: 1}]}]\n"
	topo := "topology: {replicas: 2}\n"
	for _, tc := range []struct {
		limit, topo string
		deny        bool
		ok          bool
	}{
		{", state: shared, on_store_error: closed", topo, true, true},
		{", state: shared", topo, false, true},
		{", state: shared, on_store_error: open", topo, false, true},
		{", state: shared", topo, true, false},
		{", state: shared, on_store_error: closed", topo, false, false},
		{"", "", true, false},
		{", state: local", topo, false, false},
	} {
		_, err := Parse("rls.yaml", []byte(fmt.Sprintf(src, tc.limit, tc.topo, tc.deny)))
		if tc.ok != (err == nil) {
			t.Errorf("failure_mode_deny %v with%s %q: %v, want ok %v", tc.deny, tc.limit, tc.topo, err, tc.ok)
			continue
		}
		if err != nil && (!strings.Contains(err.Error(), "lanes[0].envoy_ratelimit.failure_mode_deny:") || !strings.Contains(err.Error(), "on_store_error")) {
			t.Errorf("failure_mode_deny %v with%s: %v, want an error at the field naming on_store_error", tc.deny, tc.limit, err)
		}
	}
}

// Traefik v3.7.9's source table: a source idle until its TTL-map expiry
// (⌊last⌋ + 2 s at 1 a second) gets a new, full Limiter. Burst 3 at 1 a
// second: 3 at 0 empty the bucket; at 2 s the entry has expired (0 + 2 ≤ 2),
// so 3 more pass at once. Kept, the bucket would hold 2 tokens and the third
// would wait 1 s, beyond maxDelay (500ms): refused. A full table (keys: 1)
// evicts the other source whatever it holds (ttlmap's freeSpace), unless
// when_full says otherwise: b at 10ms passes; with evict_idle it is refused,
// a's bucket being neither full nor expired.
func TestTraefikSourceTable(t *testing.T) {
	src := "duration: 3s\nlimits: [{key: ip, limit: 1, window: 1s, burst: 3}]\nlanes: [{name: edge, algorithm: traefik%s}]\n" +
		"clients:\n  - {name: a, identity: {ip: a}, arrivals: [{kind: burst, at: 0s, count: 3}, {kind: burst, at: 2s, count: 3}]}\n%s"
	s, err := Parse("traefik.yaml", []byte(fmt.Sprintf(src, "", "")))
	if err != nil {
		t.Fatal(err)
	}
	log, _ := runVerdicts(t, *s.Config)
	if got, want := strings.Join(log["edge"], "; "), "0s a admit; 0s a admit; 0s a admit; 2s a admit; 2s a admit; 2s a admit"; got != want {
		t.Errorf("TTL: verdicts %s, want %s", got, want)
	}
	b := "  - {name: b, identity: {ip: b}, arrivals: [{kind: burst, at: 10ms, count: 1}]}\n"
	for _, tc := range []struct{ opts, want string }{
		{", keys: 1", "10ms b admit"},
		{", keys: 1, when_full: evict_idle", "10ms b ip"},
	} {
		s, err := Parse("traefik.yaml", []byte(fmt.Sprintf(src, tc.opts, b)))
		if err != nil {
			t.Fatal(err)
		}
		assertRoundTrip(t, s)
		log, _ := runVerdicts(t, *s.Config)
		if got := strings.Join(log["edge"], "; "); !strings.Contains(got, tc.want) {
			t.Errorf("%s: verdicts %s, want %s among them", tc.opts, got, tc.want)
		}
	}
}

// A key a full table evicts keeps the near_limit hits it counted: 10 a
// second, ratio 0.5 (threshold 5), a table of one key. a's 8 hits at 0 count
// the 6th to 8th (3); b's 8 at 10ms evict a (when_full: evict) and count 3
// more: 6.
func TestEnvoyNearLimitOfEvictedKeys(t *testing.T) {
	src := "duration: 1s\nlimits: [{name: api, key: ip, limit: 10, window: 1s}]\n" +
		"lanes: [{name: rls, algorithm: envoy_ratelimit, keys: 1, when_full: evict, envoy_ratelimit: {near_limit_ratio: 0.5}}]\n" +
		"clients:\n  - {name: a, identity: {ip: a}, arrivals: [{kind: burst, at: 0s, count: 8}]}\n" +
		"  - {name: b, identity: {ip: b}, arrivals: [{kind: burst, at: 10ms, count: 8}]}\n"
	s, err := Parse("rls.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := r.Lanes[0].NearLimit; len(n) != 1 || n[0].Count != 6 || r.Lanes[0].KeyTables[0].Evicted != 1 {
		t.Errorf("near_limit %v (evicted %v), want api 6 with a evicted", n, r.Lanes[0].KeyTables)
	}
}

// A rule push starts the limit's keys afresh, and the near_limit hits before
// it stay counted: 10 a second, ratio 0.5: 8 hits at 0 count 3; from 500ms
// the limit is 20 (threshold 10), and 14 hits at 600ms count 4: 7.
func TestEnvoyNearLimitAcrossARulePush(t *testing.T) {
	src := "duration: 1s\nlimits: [{name: api, key: ip, limit: 10, window: 1s, changes: [{at: 500ms, limit: 20}]}]\n" +
		"lanes: [{name: rls, algorithm: envoy_ratelimit, envoy_ratelimit: {near_limit_ratio: 0.5}}]\n" +
		"clients: [{arrivals: [{kind: burst, at: 0s, count: 8}, {kind: burst, at: 600ms, count: 14}]}]\n"
	s, err := Parse("rls.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := r.Lanes[0].NearLimit; len(n) != 1 || n[0].Count != 7 {
		t.Errorf("near_limit %v, want api 7 (3 before the push, 4 after)", n)
	}
}
