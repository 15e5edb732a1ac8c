package importer

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// envoyM12Filter is the local rate limit filter's name.
const envoyM12Filter = "envoy.filters.http.local_ratelimit"

// envoyM12 is a bootstrap, written as JSON (YAML reads it), whose one HTTP
// connection manager has routes (each {"match": …, "route": …} and
// maybe a typed_per_filter_config) and a local rate limit filter of
// typed_config top (nil: none given).
func envoyM12(t *testing.T, routes []map[string]any, top map[string]any) *Model {
	t.Helper()
	return envoyM12VH(t, routes, nil, top)
}

// envoyM12VH is envoyM12 with the virtual host's own local rate limit
// config vh (nil: none).
func envoyM12VH(t *testing.T, routes []map[string]any, vh, top map[string]any) *Model {
	t.Helper()
	m, err := envoyM12Try(t, routes, vh, top)
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	return m
}

// envoyM12Try is envoyM12VH's import, its error returned.
func envoyM12Try(t *testing.T, routes []map[string]any, vh, top map[string]any) (*Model, error) {
	t.Helper()
	filter := map[string]any{"name": envoyM12Filter}
	if top != nil {
		top["@type"] = "type.googleapis.com/envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit"
		filter["typed_config"] = top
	}
	for _, r := range routes {
		if r["route"] == nil {
			r["route"] = map[string]any{"cluster": "backend"}
		}
	}
	vhost := map[string]any{"name": "vh", "domains": []any{"*"}, "routes": routes}
	if vh != nil {
		vhost["typed_per_filter_config"] = map[string]any{envoyM12Filter: vh}
	}
	doc := map[string]any{"static_resources": map[string]any{"listeners": []any{map[string]any{
		"name": "main",
		"filter_chains": []any{map[string]any{"filters": []any{map[string]any{
			"name": "envoy.filters.network.http_connection_manager",
			"typed_config": map[string]any{
				"@type":        "type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager",
				"stat_prefix":  "ingress",
				"route_config": map[string]any{"virtual_hosts": []any{vhost}},
				"http_filters": []any{filter, map[string]any{"name": "envoy.filters.http.router"}},
			},
		}}}},
	}}}}
	data, err := json.MarshalIndent(doc, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return Import(Source{Path: "envoy.json", Data: data}, "envoy")
}

// envoyM12Config is a local rate limit config of one token bucket, enabled
// and enforced on every request, with extra fields set over it.
func envoyM12Config(prefix string, bucket map[string]any, extra map[string]any) map[string]any {
	all := map[string]any{"default_value": map[string]any{"numerator": 100, "denominator": "HUNDRED"}}
	c := map[string]any{"stat_prefix": prefix, "filter_enabled": all, "filter_enforced": all}
	if bucket != nil {
		c["token_bucket"] = bucket
	}
	for k, v := range extra {
		if v == nil {
			delete(c, k)
			continue
		}
		c[k] = v
	}
	return c
}

func envoyM12Bucket(maxTokens, perFill any, fill any) map[string]any {
	b := map[string]any{}
	if maxTokens != nil {
		b["max_tokens"] = maxTokens
	}
	if perFill != nil {
		b["tokens_per_fill"] = perFill
	}
	if fill != nil {
		b["fill_interval"] = fill
	}
	return b
}

func envoyM12Route(path string, perFilter map[string]any) map[string]any {
	r := map[string]any{"match": map[string]any{"prefix": path}}
	if strings.HasPrefix(path, "=") {
		r["match"] = map[string]any{"path": path[1:]}
	}
	if perFilter != nil {
		r["typed_per_filter_config"] = map[string]any{envoyM12Filter: perFilter}
	}
	return r
}

// envoyM12Told is the problems of m holding phrase.
func envoyM12Told(m *Model, phrase string) []string {
	var out []string
	for _, p := range m.Problems {
		if strings.Contains(p.Message, phrase) {
			out = append(out, p.Message)
		}
	}
	return out
}

// TestEnvoyTokenBucketFieldsEach: each token_bucket field at its rule
// (local_rate_limit.proto, token_bucket.proto): max_tokens and fill_interval
// required, tokens_per_fill 1 by default, a fill read in whole ms, max_tokens
// and tokens_per_fill uint32 (at the bound and one over). A bucket refused
// imports no limit (the import fails, telling why); one read imports its
// figures.
func TestEnvoyTokenBucketFieldsEach(t *testing.T) {
	sec := map[string]any{"seconds": 1}
	for _, c := range []struct {
		name   string
		bucket map[string]any
		told   string // a problem that must be told, "" none
		limit  *Limit // nil: no limit
	}{
		{"whole", envoyM12Bucket(10, 5, sec), "", &Limit{Limit: 5, Window: time.Second, Burst: 10}},
		{"tokens_per_fill defaults to 1", envoyM12Bucket(10, nil, sec), "", &Limit{Limit: 1, Window: time.Second, Burst: 10}},
		{"max_tokens missing", envoyM12Bucket(nil, 5, sec), "t: token_bucket.max_tokens is required", nil},
		{"fill_interval missing", envoyM12Bucket(10, 5, nil), "t: token_bucket.fill_interval is required", nil},
		{"fill in part ms", envoyM12Bucket(10, 5, "1.0005s"), "t: fill_interval 1.0005s is read in whole ms by Envoy: 1s", &Limit{Limit: 5, Window: time.Second, Burst: 10}},
		{"fill in part ms below 50ms", envoyM12Bucket(10, 5, "0.0505s"), "fill_interval 50.5ms is read in whole ms by Envoy: 50ms", &Limit{Limit: 5, Window: 50 * time.Millisecond, Burst: 10}},
		{"max_tokens at uint32", envoyM12Bucket(int64(math.MaxUint32), 1, sec), "", &Limit{Limit: 1, Window: time.Second, Burst: math.MaxUint32}},
		{"max_tokens over uint32", envoyM12Bucket(int64(math.MaxUint32)+1, 1, sec), "uint32 in Envoy's token_bucket: Envoy rejects 4294967296", nil},
		{"tokens_per_fill over uint32", envoyM12Bucket(10, int64(math.MaxUint32)+1, map[string]any{"seconds": 100000}), "Envoy rejects 4294967296", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := envoyM12Try(t, []map[string]any{envoyM12Route("/", nil)}, nil, envoyM12Config("t", c.bucket, nil))
			if c.limit == nil {
				var se *SyntaxError
				if !errors.As(err, &se) || len(se.Problems) != 2 || !strings.Contains(se.Problems[0].Message, c.told) ||
					!strings.Contains(se.Problems[1].Message, "no rate limit found") {
					t.Errorf("err %v, want %q and no rate limit found", err, c.told)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.told != "" && len(envoyM12Told(m, c.told)) != 1 {
				t.Errorf("problems %v, want one with %q", m.Problems, c.told)
			}
			if c.told == "" && len(m.Problems) > 0 {
				t.Errorf("problems %v, want none", m.Problems)
			}
			if len(m.Limits) != 1 {
				t.Fatalf("limits %+v, want one", m.Limits)
			}
			l := m.Limits[0]
			if l.Name != "t" || l.Key != "global" || l.Limit != c.limit.Limit || l.Window != c.limit.Window || l.Burst != c.limit.Burst || l.DryRun {
				t.Errorf("limit %+v, want t, global, %d per %v, burst %d, enforced", l, c.limit.Limit, c.limit.Window, c.limit.Burst)
			}
		})
	}
}

// TestEnvoyEnabledAndEnforcedFractions: filter_enabled and filter_enforced
// each at 100%, a fraction and 0% (also when absent, their default): none
// enabled imports shadows and says so; a fraction is told, naming its
// field; enabled but not enforced imports shadows with a note.
func TestEnvoyEnabledAndEnforcedFractions(t *testing.T) {
	pct := func(n int) map[string]any {
		return map[string]any{"default_value": map[string]any{"numerator": n, "denominator": "HUNDRED"}}
	}
	for _, c := range []struct {
		name              string
		enabled, enforced any // nil: absent
		dry               bool
		told, note        string
	}{
		{"all and all", pct(100), pct(100), false, "", ""},
		{"enabled a fraction", pct(50), pct(100), false, "t: filter_enabled runs the limit on a fraction of requests", ""},
		{"enforced a fraction", pct(100), pct(1), false, "t: filter_enforced enforces a fraction of requests", ""},
		{"enabled none", pct(0), pct(100), true, "t: filter_enabled is 0%", ""},
		{"enabled absent", nil, pct(100), true, "t: filter_enabled is 0%", ""},
		{"enforced none", pct(100), pct(0), true, "", "t is enabled but not enforced"},
		{"enforced absent", pct(100), nil, true, "", "t is enabled but not enforced"},
	} {
		t.Run(c.name, func(t *testing.T) {
			extra := map[string]any{"filter_enabled": c.enabled, "filter_enforced": c.enforced}
			m := envoyM12(t, []map[string]any{envoyM12Route("/", nil)}, envoyM12Config("t", envoyM12Bucket(10, 10, "1s"), extra))
			if len(m.Limits) != 1 || m.Limits[0].DryRun != c.dry {
				t.Fatalf("limits %+v, want one, dry run %v", m.Limits, c.dry)
			}
			if got := len(envoyM12Told(m, c.told)); c.told != "" && got != 1 || c.told == "" && len(m.Problems) > 0 {
				t.Errorf("problems %v, want only %q", m.Problems, c.told)
			}
			notes := strings.Join(m.Notes, "\n")
			if strings.Contains(notes, "enabled but not enforced") != (c.note != "") || !strings.Contains(notes, c.note) {
				t.Errorf("notes %q, want %q", m.Notes, c.note)
			}
		})
	}
}

// TestEnvoyPerRouteConfigsEndpoints: a config on some routes only counts
// what envoyEndpoint's doc says: one exact route its path, one prefix route
// its path with a problem, the catch-all alone or several routes every
// request with a problem naming them; a per-route config without a
// token_bucket is told (Envoy rejects it); a FilterConfig wrapper is
// unwrapped, and a disabled one runs no limit on its route.
func TestEnvoyPerRouteConfigsEndpoints(t *testing.T) {
	bucket := func(n int) map[string]any { return envoyM12Bucket(n, n, "1s") }
	wrap := func(cfg map[string]any, disabled bool) map[string]any {
		w := map[string]any{"@type": "type.googleapis.com/envoy.config.route.v3.FilterConfig", "config": cfg}
		if disabled {
			w["disabled"] = true
		}
		return w
	}
	for _, c := range []struct {
		name   string
		routes []map[string]any
		vh     map[string]any
		top    map[string]any
		limits map[string]string // name -> endpoint
		told   []string
	}{
		{"one exact route", []map[string]any{
			envoyM12Route("=/login", envoyM12Config("login", bucket(5), nil)), envoyM12Route("/", nil)},
			nil, envoyM12Config("top", nil, nil), map[string]string{"login": "/login"}, nil},
		{"one prefix route", []map[string]any{
			envoyM12Route("/api", envoyM12Config("api", bucket(5), nil)), envoyM12Route("/", nil)},
			nil, envoyM12Config("top", nil, nil), map[string]string{"api": "/api"},
			[]string{"api's buckets count the route matching by prefix /api: every path under it"}},
		{"the catch-all alone", []map[string]any{
			envoyM12Route("=/a", nil), envoyM12Route("/", envoyM12Config("rest", bucket(5), nil))},
			nil, envoyM12Config("top", nil, nil), map[string]string{"rest": ""},
			[]string{"rest's buckets count requests to the catch-all route (prefix /) only, not those of the other 1 routes"}},
		{"two routes of three", []map[string]any{
			envoyM12Route("=/a", nil), envoyM12Route("=/b", nil), envoyM12Route("/", envoyM12Config("own", nil, nil))},
			envoyM12Config("ab", bucket(5), nil), envoyM12Config("top", nil, nil), map[string]string{"ab": ""},
			[]string{"ab's buckets are shared by 2 routes (path /a, path /b) and count none of the other 1",
				"route own has no token_bucket"}},
		{"a per-route config without a bucket", []map[string]any{
			envoyM12Route("=/a", envoyM12Config("a", nil, nil)), envoyM12Route("/", nil)},
			nil, envoyM12Config("top", bucket(9), nil), map[string]string{"top": ""},
			[]string{"route a has no token_bucket: Envoy rejects a per-route config without one",
				"top's buckets count requests to the catch-all route (prefix /) only, not those of the other 1 routes"}},
		{"a FilterConfig wrapper", []map[string]any{
			envoyM12Route("=/a", wrap(envoyM12Config("a", bucket(5), nil), false)), envoyM12Route("/", nil)},
			nil, envoyM12Config("top", nil, nil), map[string]string{"a": "/a"}, nil},
		{"a disabled FilterConfig", []map[string]any{
			envoyM12Route("=/a", wrap(envoyM12Config("a", bucket(5), nil), true)), envoyM12Route("/", nil)},
			nil, envoyM12Config("top", bucket(9), nil), map[string]string{"top": ""},
			[]string{"top's buckets count requests to the catch-all route (prefix /) only, not those of the other 1 routes"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			m := envoyM12VH(t, c.routes, c.vh, c.top)
			got := map[string]string{}
			for _, l := range m.Limits {
				got[l.Name] = l.Endpoint
			}
			if len(got) != len(c.limits) {
				t.Errorf("limits %v, want %v", got, c.limits)
			}
			for name, ep := range c.limits {
				if e, ok := got[name]; !ok || e != ep {
					t.Errorf("limits %v, want %s at endpoint %q", got, name, ep)
				}
			}
			for _, phrase := range c.told {
				if len(envoyM12Told(m, phrase)) != 1 {
					t.Errorf("problems %v, want one with %q", m.Problems, phrase)
				}
			}
			if len(m.Problems) != len(c.told) {
				t.Errorf("problems %v, want %d", m.Problems, len(c.told))
			}
		})
	}
}

// TestEnvoyBucketProblemsNameTheirField: a bad max_tokens, tokens_per_fill
// or fill_interval is told under its whole field: token_bucket.X for the
// config's bucket, descriptors[i].token_bucket.X for the i-th descriptor's.
func TestEnvoyBucketProblemsNameTheirField(t *testing.T) {
	good := map[string]any{"max_tokens": 10, "tokens_per_fill": 10, "fill_interval": "1s"}
	bad := map[string]any{"max_tokens": "many", "tokens_per_fill": "some", "fill_interval": "soon"}
	for _, field := range []string{"max_tokens", "tokens_per_fill", "fill_interval"} {
		for _, at := range []int{-1, 0, 1} { // -1: the config's own bucket
			b := map[string]any{}
			for k, v := range good {
				b[k] = v
			}
			b[field] = bad[field]
			top := envoyM12Config("t", good, nil)
			want := "token_bucket." + field
			if at >= 0 {
				var descs []any
				for i := range at + 1 {
					d := map[string]any{"entries": []any{map[string]any{"key": "k", "value": fmt.Sprint(i)}}, "token_bucket": good}
					if i == at {
						d["token_bucket"] = b
					}
					descs = append(descs, d)
				}
				top["descriptors"] = descs
				want = fmt.Sprintf("descriptors[%d].token_bucket.%s", at, field)
			} else {
				top["token_bucket"] = b
			}
			m, err := envoyM12Try(t, []map[string]any{envoyM12Route("/", nil)}, nil, top)
			var problems []Problem
			var se *SyntaxError
			switch {
			case errors.As(err, &se):
				problems = se.Problems
			case err != nil:
				t.Fatal(err)
			default:
				problems = m.Problems
			}
			n := 0
			for _, p := range problems {
				if strings.Contains(p.Message, ": "+field) || strings.Contains(p.Message, "."+field) {
					n++
					if !strings.Contains(p.Message, want) {
						t.Errorf("%s bad at %d: told %q, want it to name %s", field, at, p.Message, want)
					}
				}
			}
			if n == 0 {
				t.Errorf("%s bad at %d: problems %v, want one naming %s", field, at, problems, want)
			}
		}
	}
}

// TestEnvoyConnectionManagerIsAFilterList: a mapping is an HTTP connection
// manager when its http_filters is a list (an empty one too), at any depth;
// http_filters as a mapping or a scalar, or none at all, is no manager, and
// the import says so.
func TestEnvoyConnectionManagerIsAFilterList(t *testing.T) {
	for _, c := range []struct {
		doc     string
		manager bool
	}{
		{"static_resources:\n  listeners:\n  - filter_chains:\n    - filters:\n      - typed_config:\n          http_filters: []\n", true},
		{"http_filters:\n- name: envoy.filters.http.router\n", true},
		{"a:\n  b:\n  - c:\n      http_filters: [{name: envoy.filters.http.router}]\n", true},
		{"static_resources:\n  listeners:\n  - filter_chains:\n    - filters:\n      - typed_config:\n          http_filters: {}\n", false},
		{"static_resources:\n  listeners:\n  - filter_chains:\n    - filters:\n      - typed_config:\n          http_filters: envoy.filters.http.router\n", false},
		{"static_resources:\n  listeners: []\n", false},
	} {
		_, err := Import(Source{Path: "e.yaml", Data: []byte(c.doc)}, "envoy")
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("%q: err %v, want a SyntaxError (no limit)", c.doc, err)
		}
		told := false
		for _, p := range se.Problems {
			told = told || strings.Contains(p.Message, "no HTTP connection manager (http_filters)")
		}
		if told == c.manager {
			t.Errorf("%q: told no manager %v, want %v (problems %v)", c.doc, told, !c.manager, se.Problems)
		}
	}
}

// TestImportSizeBound: a config of exactly MaxConfigSize bytes is read, one
// byte more is refused, naming the bound in MB.
func TestImportSizeBound(t *testing.T) {
	base, err := os.ReadFile(filepath.Join("testdata", "envoy", "minimal.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{MaxConfigSize, MaxConfigSize + 1} {
		data := make([]byte, 0, size)
		data = append(data, base...)
		data = append(data, "\n#"...)
		data = append(data, bytes.Repeat([]byte{' '}, size-len(data)-1)...)
		data = append(data, '\n')
		_, err := Import(Source{Path: "big.yaml", Data: data}, "envoy")
		want := fmt.Sprintf("big.yaml: larger than %d MB, the most a config may hold", MaxConfigSize>>20)
		if size <= MaxConfigSize && err != nil || size > MaxConfigSize && (err == nil || err.Error() != want) {
			t.Errorf("%d bytes: err %v, want %v", size, err, map[bool]string{true: "nil", false: want}[size <= MaxConfigSize])
		}
	}
}
