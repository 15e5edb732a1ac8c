package importer

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/quick"
	"time"
)

// ekLimit is a limit as a sample's test expects it, derived by hand from
// the config's text and the product's rules (envoy.go, kong.go).
type ekLimit struct {
	name     string
	key      string
	limit    int64
	window   time.Duration
	burst    int64
	endpoint string
	dry      bool
	state    string
}

// ekProblem is a problem expected at line, its message holding phrase.
type ekProblem struct {
	line   int
	phrase string
}

// ekCheckLimits holds m's limits to want, in chain order.
func ekCheckLimits(t *testing.T, m *Model, want []ekLimit) {
	t.Helper()
	if len(m.Limits) != len(want) {
		var got []string
		for _, l := range m.Limits {
			got = append(got, l.Name)
		}
		t.Fatalf("%d limits %v, want %d", len(m.Limits), got, len(want))
	}
	for i, w := range want {
		l := m.Limits[i]
		got := ekLimit{l.Name, l.Key, l.Limit, l.Window, l.Burst, l.Endpoint, l.DryRun, l.State}
		if got != w {
			t.Errorf("limit %d = %+v\n          want %+v", i, got, w)
		}
		if len(l.At) == 0 || l.At[0].Line <= 0 {
			t.Errorf("limit %d (%s) has no line: %v", i, l.Name, l.At)
		}
	}
}

// ekCheckProblems holds m's problems to want: each expected one is there, at
// its line, and there are no others.
func ekCheckProblems(t *testing.T, m *Model, want []ekProblem) {
	t.Helper()
	used := make([]bool, len(m.Problems))
	for _, w := range want {
		found := false
		for i, p := range m.Problems {
			if !used[i] && p.At.Line == w.line && strings.Contains(p.Message, w.phrase) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			t.Errorf("no problem at line %d with %q", w.line, w.phrase)
		}
	}
	for i, p := range m.Problems {
		if !used[i] {
			t.Errorf("unexpected problem %s", p)
		}
	}
}

func ekLaneField(l Lane, key string) any {
	for _, f := range append(slices.Clone(l.Options), l.Section...) {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

func TestImportEnvoyMinimal(t *testing.T) {
	m, s := importSample(t, "envoy", "minimal.yaml")
	ekCheckLimits(t, m, []ekLimit{{"http_local_rate_limiter", "global", 1000, time.Second, 10000, "", false, ""}})
	ekCheckProblems(t, m, nil)
	if m.Chain != "" {
		t.Errorf("chain %q for one bucket, want the default", m.Chain)
	}
	if len(m.Lanes) != 1 || m.Lanes[0].Algorithm != "envoy_local" || ekLaneField(m.Lanes[0], "refill") != "continuous" ||
		ekLaneField(m.Lanes[0], "max_tokens") != int64(10000) || ekLaneField(m.Lanes[0], "status") != nil {
		t.Errorf("lanes %+v, want one envoy_local lane, continuous, max_tokens 10000, the default status", m.Lanes)
	}
	if len(s.Config.Limits) != 1 || s.Config.Limits[0].Policy.Burst != 10000 {
		t.Errorf("the scenario's limits %+v, want one with burst 10000", s.Config.Limits)
	}
}

func TestImportEnvoyListener(t *testing.T) {
	m, _ := importSample(t, "envoy", "listener.yaml")
	// The virtual host's config (line 31) before the routes' (51, 82); in
	// each, descriptors by tokens_per_fill/fill_interval ascending, the
	// default bucket last: login 5/60s; search 20/1s before 300/1s.
	ekCheckLimits(t, m, []ekLimit{
		{"site", "global", 200, time.Second, 400, "", false, ""},
		{"login[remote_address]", "ip", 5, time.Minute, 5, "/login", false, ""},
		{"login", "global", 50, time.Second, 50, "/login", false, ""},
		{"search[api_key]", "api_key", 20, time.Second, 40, "/v1/search", false, ""},
		{"search[generic_key=search]", "global", 300, time.Second, 300, "/v1/search", false, ""},
		{"search", "global", 1000, time.Second, 1000, "/v1/search", false, ""},
	})
	ekCheckProblems(t, m, []ekProblem{{31, "catch-all route (prefix /) only"}})
	if m.Chain != "charge_until_refused" {
		t.Errorf("chain %q, want charge_until_refused (Envoy keeps the tokens taken before a refusal)", m.Chain)
	}
	l := m.Lanes[0]
	if ekLaneField(l, "status") != int64(503) || ekLaneField(l, "keys") != int64(20) || ekLaneField(l, "when_full") != "evict" {
		t.Errorf("lane options %v, want status 503 (ServiceUnavailable and 503), keys 20 (max_dynamic_descriptors' default), when_full evict", l.Options)
	}
}

func TestImportEnvoyProblems(t *testing.T) {
	m, _ := importSample(t, "envoy", "problems.yaml")
	ekCheckLimits(t, m, []ekLimit{
		{"everyone", "ip", 100, time.Second, 100, "/status", true, ""},
		{"api[header_match=bot]", "global", 1, 10 * time.Second, 1, "/api", false, ""},
		{"api[remote_address=10.0.0.1]", "global", 2, time.Second, 2, "/api", false, ""},
		{"api[client,remote_address]", "user", 3, time.Second, 3, "/api", false, ""},
		{"api[client]", "user", 10, time.Second, 10, "/api", false, ""},
		{"api", "global", 60, time.Minute, 60, "/api", false, ""},
		{"users", "global", 20, 1500 * time.Millisecond, 20, "^/users/[0-9]+$", true, ""},
	})
	ekCheckProblems(t, m, []ekProblem{
		{15, "global rate limit filter"},
		{28, "ring_size is not read"},
		{21, "everyone: filter_enabled is 0%"},
		{27, "per-connection bucket is a per-client key"},
		{62, "filter_enforced enforces a fraction"},
		{64, "local_cluster_rate_limit"},
		{56, "prefix /api"},
		{67, "x-client-id, which rlsim has no key for"},
		{69, "header matchers"},
		{71, `"10.0.0.1"`},
		{73, "never charges it"},
		{75, "user and ip together"},
		{75, "x-client-id, which rlsim has no key for"},
		{78, "below 50ms"},
		{63, "always_consume_default_token_bucket false"},
		{80, "regex"},
		{84, "users: filter_enabled is 0%"},
		{99, "RDS"},
		{65, "answer 403 here but 429"},
	})
}

func TestImportEnvoyRateLimitService(t *testing.T) {
	for _, c := range []struct {
		file     string
		limits   []ekLimit
		problems []ekProblem
		note     string
	}{
		{"ratelimit-messaging.yaml", []ekLimit{
			{"message_type_marketing.to_number", "user", 5, 24 * time.Hour, 0, "", false, "shared"},
			{"to_number", "user", 100, 24 * time.Hour, 0, "", false, "shared"},
		}, []ekProblem{{9, "message_type=marketing"}, {9, "per to_number value"}, {15, "per to_number value"}, {3, "increments every descriptor"}}, `domain "messaging"`},
		{"ratelimit-edge.yaml", []ekLimit{
			{"remote_address", "ip", 10, time.Second, 0, "", false, "shared"},
			{"api_key", "api_key", 600, time.Minute, 0, "", false, "shared"},
			{"path_/login.remote_address", "ip", 5, time.Minute, 0, "/login", false, "shared"},
			{"service.user_user-a", "user", 10, time.Second, 0, "", true, "shared"},
		}, []ekProblem{{15, "block list"}, {33, "per service value"}, {33, "user=user-a"}, {4, "increments every descriptor"}}, "failure_mode_deny"},
		{"ratelimit-problems.yaml", []ekLimit{
			{"azure", "user", 100, time.Minute, 0, "", false, "shared"},
			{"key_2_value_2.user_bkthomps", "global", 10, time.Second, 0, "", false, "shared"},
			{"files_files/*", "user", 10, time.Hour, 0, "", false, "shared"},
			{"x-tenant-id", "tenant", 1000, time.Hour, 0, "", false, "shared"},
		}, []ekProblem{{10, "per azure value"}, {23, "replaces 1 named limits"}, {19, "key_2=value_2"}, {19, "user=bkthomps"},
			{27, "matching files/*"}, {27, "per files value"}, {29, "quota_mode"}, {36, `invalid rate limit unit "fortnight"`},
			{39, "duplicate descriptor composite key \"azure\" (also line 10)"}, {45, "shadow is not read"}, {3, "increments every descriptor"}},
			"ldap (testdata/envoy/ratelimit-problems.yaml:8) is unlimited"},
	} {
		t.Run(c.file, func(t *testing.T) {
			m, _ := importSample(t, "envoy", c.file)
			ekCheckLimits(t, m, c.limits)
			ekCheckProblems(t, m, c.problems)
			if len(m.Lanes) != 1 || m.Lanes[0].Algorithm != "envoy_ratelimit" {
				t.Errorf("lanes %+v, want one envoy_ratelimit lane", m.Lanes)
			}
			if !strings.Contains(strings.Join(m.Notes, "\n"), c.note) {
				t.Errorf("notes %q lack %q", m.Notes, c.note)
			}
		})
	}
}

func TestEnvoyProtoDuration(t *testing.T) {
	for in, want := range map[string]time.Duration{
		`"1s"`: time.Second, `"0.5s"`: 500 * time.Millisecond, `"60s"`: time.Minute, `"0.000000001s"`: 1,
		`{seconds: 2, nanos: 5}`: 2*time.Second + 5, `"1.25s"`: 1250 * time.Millisecond,
	} {
		root, err := readYAMLNode("envoy", "d.yaml", []byte("d: "+in))
		if err != nil {
			t.Fatal(err)
		}
		f := &nodeFile{name: "d.yaml", m: &Model{}}
		if got, ok := f.protoDuration(f.get(root, "d"), "d"); !ok || got != want {
			t.Errorf("protoDuration(%s) = %v, %v, want %v", in, got, ok, want)
		}
	}
	for _, in := range []string{`"10ms"`, `"1m"`, `"-1s"`, `"1.0000000001s"`, `"s"`, `"+1s"`, `"1e3s"`} {
		root, _ := readYAMLNode("envoy", "d.yaml", []byte("d: "+in))
		f := &nodeFile{name: "d.yaml", m: &Model{}}
		if got, ok := f.protoDuration(f.get(root, "d"), "d"); ok || len(f.m.Problems) != 1 {
			t.Errorf("protoDuration(%s) = %v, %v with %d problems, want a problem", in, got, ok, len(f.m.Problems))
		}
	}
}

// TestEnvoyDescriptorOrderProperty: on arbitrary descriptors, the chain
// holds each config's descriptors in ascending fill rate (Envoy's sort in
// requestAllowed), equal rates in config order, the default bucket last.
func TestEnvoyDescriptorOrderProperty(t *testing.T) {
	prop := func(seed uint64) bool {
		rng := rand.New(rand.NewPCG(seed, 1))
		n := 1 + rng.IntN(8)
		var b strings.Builder
		b.WriteString("static_resources:\n  listeners:\n  - filter_chains:\n    - filters:\n      - typed_config:\n          http_filters:\n")
		b.WriteString("          - name: envoy.filters.http.local_ratelimit\n            typed_config:\n              stat_prefix: p\n")
		b.WriteString("              token_bucket: {max_tokens: 9, tokens_per_fill: 9, fill_interval: 1s}\n")
		b.WriteString("              filter_enabled: {default_value: {numerator: 100}}\n              filter_enforced: {default_value: {numerator: 100}}\n")
		b.WriteString("              rate_limits:\n")
		for i := range n {
			fmt.Fprintf(&b, "              - actions: [{generic_key: {descriptor_value: d%d}}]\n", i)
		}
		b.WriteString("              descriptors:\n")
		type d struct {
			i          int
			per, fillS int64
		}
		var ds []d
		for i := range n {
			x := d{i, 1 + rng.Int64N(20), 1 + rng.Int64N(5)}
			ds = append(ds, x)
			fmt.Fprintf(&b, "              - entries: [{key: generic_key, value: d%d}]\n                token_bucket: {max_tokens: %d, tokens_per_fill: %d, fill_interval: %ds}\n", i, x.per, x.per, x.fillS)
		}
		m, err := Import(Source{Path: "p.yaml", Data: []byte(b.String())}, "envoy")
		if err != nil || len(m.Limits) != n+1 {
			t.Logf("%v\n%s", err, b.String())
			return false
		}
		// Sort by hand: rate a.per/a.fillS < b.per/b.fillS as cross products.
		slices.SortStableFunc(ds, func(a, b d) int {
			l, r := a.per*b.fillS, b.per*a.fillS
			return map[bool]int{true: -1, false: 0}[l < r] + map[bool]int{true: 1, false: 0}[l > r]
		})
		for k, x := range ds {
			if m.Limits[k].Name != fmt.Sprintf("p[generic_key=d%d]", x.i) {
				t.Logf("limit %d is %s, want d%d\n%s", k, m.Limits[k].Name, x.i, b.String())
				return false
			}
		}
		return m.Limits[n].Name == "p" && m.Chain == "charge_until_refused"
	}
	if err := quick.Check(prop, &quick.Config{MaxCount: 200}); err != nil {
		t.Error(err)
	}
}

func TestEnvoyDetectsOnlyItsOwn(t *testing.T) {
	for _, p := range []struct{ dir, want string }{{"envoy", "envoy"}, {"kong", "kong"}} {
		files, _ := filepath.Glob(filepath.Join("testdata", p.dir, "*"))
		for _, name := range files {
			src, err := SourceFile(name)
			if err != nil {
				t.Fatal(err)
			}
			if detectEnvoy(name, src.Data) != (p.want == "envoy") {
				t.Errorf("detectEnvoy(%s) = %v", name, !(p.want == "envoy"))
			}
		}
	}
}

func TestEnvoyNotYAML(t *testing.T) {
	_, err := Import(Source{Path: "bad.yaml", Data: []byte("static_resources:\n  listeners: [\n    - x\n")}, "envoy")
	se, ok := err.(*SyntaxError)
	if !ok || len(se.Problems) == 0 || se.Problems[0].At.Line < 2 {
		t.Fatalf("err %v, want a SyntaxError at a line past 1", err)
	}
}

func FuzzImportEnvoy(f *testing.F) {
	fuzzImport(f, "envoy",
		"static_resources: {}\n",
		"domain: d\ndescriptors:\n- key: k\n  rate_limit: {unit: second, requests_per_unit: 1}\n",
		"a: &a [*a]\n",
		"http_filters:\n- name: envoy.filters.http.local_ratelimit\n  typed_config: {token_bucket: {max_tokens: 1, fill_interval: {seconds: 1}}}\n")
}

// envoyGenerated is a listener of n routes, each with its own local rate
// limit config and two descriptors: about 30 lines a route.
func envoyGenerated(n int) []byte {
	var b strings.Builder
	b.WriteString("static_resources:\n  listeners:\n  - name: big\n    filter_chains:\n    - filters:\n      - name: envoy.filters.network.http_connection_manager\n        typed_config:\n")
	b.WriteString("          http_filters:\n          - name: envoy.filters.http.local_ratelimit\n            typed_config: {stat_prefix: top}\n")
	b.WriteString("          route_config:\n            virtual_hosts:\n            - name: all\n              domains: [\"*\"]\n              routes:\n")
	for i := range n {
		fmt.Fprintf(&b, `              - match: {path: /r%d}
                route:
                  cluster: c
                  rate_limits:
                  - actions:
                    - remote_address: {}
                  - actions:
                    - request_headers: {header_name: x-api-key, descriptor_key: api_key}
                typed_per_filter_config:
                  envoy.filters.http.local_ratelimit:
                    "@type": type.googleapis.com/envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit
                    stat_prefix: r%d
                    token_bucket:
                      max_tokens: %d
                      tokens_per_fill: %d
                      fill_interval: 1s
                    filter_enabled:
                      default_value: {numerator: 100, denominator: HUNDRED}
                    filter_enforced:
                      default_value: {numerator: 100, denominator: HUNDRED}
                    descriptors:
                    - entries:
                      - key: remote_address
                      token_bucket: {max_tokens: 10, tokens_per_fill: 10, fill_interval: 60s}
                    - entries:
                      - key: api_key
                      token_bucket:
                        max_tokens: 100
                        tokens_per_fill: 50
                        fill_interval: 1s
`, i, i, 100+i, 100+i)
	}
	return []byte(b.String())
}

func BenchmarkImportEnvoy(b *testing.B) {
	data := envoyGenerated(345)
	if lines := strings.Count(string(data), "\n"); lines < 10000 {
		b.Fatalf("%d lines, want 10,000", lines)
	}
	b.ReportAllocs()
	for b.Loop() {
		m, err := Import(Source{Path: "big.yaml", Data: data}, "envoy")
		if err != nil || len(m.Limits) != 3*345 {
			b.Fatalf("%v, %d limits", err, len(m.Limits))
		}
	}
}
