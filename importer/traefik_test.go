package importer

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
)

// wantLimit is a limit as the test expects it, derived by hand from the sample.
type wantLimit struct {
	name, key       string
	limit           int64
	window          time.Duration
	burst           int64
	endpoint, state string
}

// wantProblem is a problem expected at a line, by a phrase of its message.
type wantProblem struct {
	line   int
	phrase string
}

func checkLimits(t *testing.T, m *Model, want []wantLimit) {
	t.Helper()
	if len(m.Limits) != len(want) {
		t.Errorf("%d limits, want %d: %+v", len(m.Limits), len(want), m.Limits)
	}
	for i := 0; i < min(len(m.Limits), len(want)); i++ {
		g, w := m.Limits[i], want[i]
		got := wantLimit{g.Name, g.Key, g.Limit, g.Window, g.Burst, g.Endpoint, g.State}
		if got != w {
			t.Errorf("limit %d = %+v, want %+v", i, got, w)
		}
		if len(g.At) == 0 || g.Note == "" {
			t.Errorf("limit %d has no origin or note", i)
		}
	}
}

func checkProblems(t *testing.T, m *Model, want []wantProblem) {
	t.Helper()
	for _, w := range want {
		found := false
		for _, p := range m.Problems {
			if p.At.Line == w.line && strings.Contains(p.Message, w.phrase) {
				found = true
			}
		}
		if !found {
			t.Errorf("no problem at line %d saying %q; problems:\n%s", w.line, w.phrase, problemList(m))
		}
	}
	if len(m.Problems) != len(want) {
		t.Errorf("%d problems, want %d:\n%s", len(m.Problems), len(want), problemList(m))
	}
}

func problemList(m *Model) string {
	var b strings.Builder
	for _, p := range m.Problems {
		fmt.Fprintln(&b, "  ", p)
	}
	return b.String()
}

var traefikProduction = []wantLimit{
	{"login/login-limit", "ip", 5, time.Minute, 3, "/login", ""},
	{"api/api-key-limit", "api_key", 600, 60 * time.Second, 50, "/v1", ""},
	{"api/per-ip", "ip", 20, time.Second, 40, "/v1", ""},
	{"site/per-ip", "ip", 20, time.Second, 40, "", ""},
}

func TestTraefikSamples(t *testing.T) {
	for _, c := range []struct {
		file     string
		limits   []wantLimit
		problems []wantProblem
		chain    string
		section  Fields
	}{
		{"minimal.yml", []wantLimit{{"web/test-ratelimit", "ip", 100, time.Second, 200, "", ""}}, nil, "",
			Fields{{"average", int64(100)}, {"period", time.Second}, {"burst", int64(200)}}},
		{"production.yml", traefikProduction, []wantProblem{{13, "PathPrefix(`/v1`)"}, {19, "takes only the requests no router with a path takes"}},
			"charge_until_refused", Fields{{"average", int64(5)}, {"period", time.Minute}, {"burst", int64(3)}}},
		{"production.toml", traefikProduction, []wantProblem{{11, "PathPrefix(`/v1`)"}, {18, "takes only the requests no router with a path takes"}},
			"charge_until_refused", Fields{{"average", int64(5)}, {"period", time.Minute}, {"burst", int64(3)}}},
		{"problems.yml", []wantLimit{
			{"search/by-tenant", "api_key", 50, 10 * time.Second, 1, "", ""},
			{"upload/shared-limit", "ip", 10, time.Second, 1, "/upload", "shared"},
			{"hosts/per-host", "global", 1000, time.Second, 1, "", ""},
			{"hosts/v6", "ip", 30, time.Second, 1, "", ""},
		}, []wantProblem{
			{30, "requestHeaderName X-Customer"},
			{35, "redis"},
			{46, "more than one of ipStrategy"},
			{50, "Traefik does not limit"},
			{57, "ipv6Subnet"},
			{62, "inFlightReq"},
			{5, "uses || or !"},
			{14, "docker provider"},
			{10, "Method matcher"},
			{59, "defined, not used"}, {22, "not defined in this file"},
			{4, "search/by-tenant: router search takes only"},
			{15, "hosts/per-host: router hosts takes only"},
			{15, "hosts/v6: router hosts takes only"},
		}, "charge_until_refused", Fields{{"average", int64(50)}, {"period", 10 * time.Second}, {"burst", int64(1)}}},
	} {
		t.Run(c.file, func(t *testing.T) {
			m, s := importSample(t, "traefik", c.file)
			checkLimits(t, m, c.limits)
			checkProblems(t, m, c.problems)
			if m.Chain != c.chain {
				t.Errorf("chain %q, want %q", m.Chain, c.chain)
			}
			if len(m.Lanes) != 1 || m.Lanes[0].Algorithm != "traefik" || fmt.Sprint(m.Lanes[0].Section) != fmt.Sprint(c.section) {
				t.Errorf("lanes %+v, want one traefik lane with %v", m.Lanes, c.section)
			}
			if got := s.Config.Limits[0].Policy.Burst; got != c.limits[0].burst {
				t.Errorf("the scenario's first burst is %d, want Traefik's %d", got, c.limits[0].burst)
			}
		})
	}
}

// TestTraefikYAMLAndTOMLImportAlike: the production config in its two
// syntaxes gives the same limits, lane, chain and problems (lines aside).
func TestTraefikYAMLAndTOMLImportAlike(t *testing.T) {
	y, _ := importSample(t, "traefik", "production.yml")
	tm, _ := importSample(t, "traefik", "production.toml")
	strip := func(m *Model) string {
		var b strings.Builder
		for _, l := range m.Limits {
			l.At = nil
			fmt.Fprintf(&b, "%+v\n", l)
		}
		for _, l := range m.Lanes {
			l.At = nil
			fmt.Fprintf(&b, "%+v\n", l)
		}
		for _, p := range m.Problems {
			fmt.Fprintln(&b, p.Message)
		}
		fmt.Fprintln(&b, m.Chain, m.Notes)
		return b.String()
	}
	if a, b := strip(y), strip(tm); a != b {
		t.Errorf("YAML and TOML import differently:\n%s\n---\n%s", a, b)
	}
}

func TestTraefikRule(t *testing.T) {
	for _, c := range []struct {
		rule, endpoint string
		problem        string
	}{
		{"Path(`/x`)", "/x", ""},
		{"PathPrefix(`/api`)", "/api", "PathPrefix"},
		{"Host(`a.example`) && PathPrefix(`/api`)", "/api", "PathPrefix"},
		{`Host("a.example") && Path("/q")`, "/q", ""},
		{"Host(`a`) || Path(`/x`)", "", "||"},
		{"!Path(`/x`)", "", "||"},
		{"(Host(`a`) && Path(`/x`))", "", "parentheses"},
		{"Path(`/a`) && Header(`X`, `y`)", "/a", "Header"},
		{"Path(`/a&&b`)", "/a&&b", ""},
		{"PathPrefix(`/`)", "", ""},
	} {
		r := &traefikReader{file: "f", m: &Model{}}
		got := r.ruleEndpoint("r", c.rule, 1)
		if got != c.endpoint {
			t.Errorf("rule %s: endpoint %q, want %q", c.rule, got, c.endpoint)
		}
		if (c.problem == "") != (len(r.m.Problems) == 0) || c.problem != "" && !strings.Contains(r.m.Problems[0].Message, c.problem) {
			t.Errorf("rule %s: problems %v, want one saying %q", c.rule, r.m.Problems, c.problem)
		}
	}
}

func TestTraefikPeriod(t *testing.T) {
	for _, c := range []struct {
		v    any
		want time.Duration
		ok   bool
	}{{int64(10), 10 * time.Second, true}, {"10", 10 * time.Second, true}, {"1m", time.Minute, true}, {"250ms", 250 * time.Millisecond, true}, {"soon", 0, false}, {1.5, 0, false}} {
		got, err := traefikDuration(&cnode{val: c.v})
		if got != c.want || (err == nil) != c.ok {
			t.Errorf("period %v = %v, %v; want %v, ok %v", c.v, got, err, c.want, c.ok)
		}
	}
}

func TestTraefikSyntaxErrorsAtLines(t *testing.T) {
	_, err := Import(Source{Path: "bad.yml", Data: []byte("http:\n  routers:\n    a: [\n")}, "traefik")
	if err == nil || !strings.Contains(err.Error(), "bad.yml:") {
		t.Errorf("broken YAML: %v, want a SyntaxError at bad.yml:line", err)
	}
	_, err = Import(Source{Path: "dup.yml", Data: []byte("http:\n  middlewares: {}\n  middlewares: {}\n")}, "traefik")
	if err == nil || !strings.Contains(err.Error(), "dup.yml:3:") {
		t.Errorf("a key defined twice: %v, want a SyntaxError at dup.yml:3", err)
	}
	_, err = Import(Source{Path: "bad.toml", Data: []byte("[http]\nx = 1\nx = 2\ny = \n")}, "traefik")
	if err == nil || !strings.Contains(err.Error(), "bad.toml:3:") || !strings.Contains(err.Error(), "bad.toml:4:") {
		t.Errorf("broken TOML: %v, want errors at lines 3 and 4", err)
	}
}

func FuzzImportTraefik(f *testing.F) {
	fuzzImport(f, "traefik",
		"http:\n  routers:\n    r:\n      rule: Path(`/a`)\n      middlewares: [m]\n  middlewares:\n    m:\n      rateLimit: {average: 3, period: 2s}\n",
		"[http.routers.r]\nrule = \"Path(`/a`)\"\nmiddlewares = [\"m\"]\n[http.middlewares.m.rateLimit]\naverage = 3\n",
		"a: &x [*x]\n")
}

// traefikConfig is a generated config of about lines lines: routers each
// with its own rateLimit middleware.
func traefikConfig(lines int) []byte {
	var b strings.Builder
	b.WriteString("http:\n  routers:\n")
	n := lines / 12
	for i := range n {
		fmt.Fprintf(&b, "    r%d:\n      rule: \"Host(`h`) && Path(`/p%d`)\"\n      service: s\n      middlewares:\n        - m%d\n", i, i, i)
	}
	b.WriteString("  middlewares:\n")
	for i := range n {
		fmt.Fprintf(&b, "    m%d:\n      rateLimit:\n        average: %d\n        period: 1m\n        burst: 5\n        sourceCriterion:\n          requestHeaderName: X-Api-Key\n", i, i+1)
	}
	return []byte(b.String())
}

func BenchmarkImportTraefik(b *testing.B) {
	data := traefikConfig(10000)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := Import(Source{Path: "gen.yml", Data: data}, "traefik"); err != nil {
			b.Fatal(err)
		}
	}
}

// mutatedSamples holds product's import to fuzzImport's property on n
// deterministic mutations of its samples (bytes replaced, deleted and
// inserted from the syntax's own characters): no panic, and either a
// SyntaxError with problems or a scenario that parses. It runs in go test,
// beside the fuzz target, whose big seeds make it slow to explore.
func mutatedSamples(t *testing.T, product string, n int) {
	files, _ := filepath.Glob(filepath.Join("testdata", product, "*"))
	var seeds [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, b)
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("[]{}=\"'`.,#\n :-0123456789&|!()/@abcxyz\\")
	for i := range n {
		d := append([]byte(nil), seeds[r.IntN(len(seeds))]...)
		for range 1 + r.IntN(6) {
			p := r.IntN(len(d))
			switch r.IntN(3) {
			case 0:
				d[p] = alphabet[r.IntN(len(alphabet))]
			case 1:
				d = append(d[:p], d[min(len(d), p+1+r.IntN(20)):]...)
			default:
				d = append(d[:p], append([]byte{alphabet[r.IntN(len(alphabet))]}, d[p:]...)...)
			}
			if len(d) == 0 {
				d = []byte("x")
			}
		}
		m, err := Import(Source{Path: "mutated.conf", Data: d}, product)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) || len(se.Problems) == 0 {
				t.Fatalf("mutation %d: an import error that is not a SyntaxError with problems: %v\n%s", i, err, d)
			}
			continue
		}
		if _, err := scenarios.Parse("mutated.yaml", Render(m)); err != nil {
			t.Fatalf("mutation %d imported without error but the scenario does not parse: %v\n%s", i, err, d)
		}
	}
}

func TestTraefikMutatedSamples(t *testing.T) { mutatedSamples(t, "traefik", 1500) }

// TestUnstatableLimitsAreProblems: a limit a scenario cannot state (beyond
// 2^30, 100 years or one request every 2ns) is a Problem at its line, not a
// scenario that fails to parse.
func TestUnstatableLimitsAreProblems(t *testing.T) {
	traefik := func(rl string) string {
		return "http:\n  routers:\n    r:\n      rule: Path(`/a`)\n      middlewares: [m]\n  middlewares:\n    m:\n      rateLimit:\n        " + rl + "\n"
	}
	for _, c := range []struct {
		product, doc, phrase string
	}{
		{"traefik", traefik("average: 5\n        period: 1000000h"), "outside 1ns to 100 years"},
		{"traefik", traefik("average: 2000000000"), "outside 1 to 2^30"},
		{"traefik", traefik("average: 1\n        period: 1ns"), "faster than one request every 2ns"},
		{"traefik", traefik("average: 5\n        burst: 9223372036854775807"), "burst 9223372036854775807 is above 2^30"},
		{"haproxy", "frontend f\n stick-table type ip store http_req_rate(10s)\n http-request track-sc0 src\n http-request deny if { sc_http_req_rate(0) gt 9223372036854775807 }\n", "outside 1 to 2^30"},
		{"haproxy", "frontend f\n stick-table type ip store http_req_rate(30d)\n http-request track-sc0 src\n http-request deny if { sc_http_req_rate(0) gt 5 }\n", "2ms to 2^30 ms"},
	} {
		_, err := Import(Source{Path: "x", Data: []byte(c.doc)}, c.product)
		var se *SyntaxError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), c.phrase) || !strings.Contains(err.Error(), "no rate limit found") {
			t.Errorf("%s %q: %v, want a problem saying %q and no limit", c.product, c.doc, err, c.phrase)
		}
	}
}
