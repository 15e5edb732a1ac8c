package importer

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// envoyS7Config is a bootstrap with one HTTP local rate limit filter whose
// token_bucket and extra fields (indented for typed_config) are given.
func envoyS7Config(bucket, extra string) []byte {
	return []byte(`static_resources:
  listeners:
  - name: main
    address:
      socket_address: {address: 0.0.0.0, port_value: 10000}
    filter_chains:
    - filters:
      - name: envoy.filters.network.http_connection_manager
        typed_config:
          "@type": type.googleapis.com/envoy.extensions.filters.network.http_connection_manager.v3.HttpConnectionManager
          stat_prefix: ingress_http
          route_config:
            name: local_route
            virtual_hosts:
            - name: backend
              domains: ["*"]
              routes:
              - match: {prefix: "/"}
                route: {cluster: backend}
          http_filters:
          - name: envoy.filters.http.local_ratelimit
            typed_config:
              "@type": type.googleapis.com/envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit
              stat_prefix: s7
              token_bucket:
` + bucket + `
              filter_enabled:
                default_value: {numerator: 100, denominator: HUNDRED}
              filter_enforced:
                default_value: {numerator: 100, denominator: HUNDRED}
` + extra + `
          - name: envoy.filters.http.router
            typed_config:
              "@type": type.googleapis.com/envoy.extensions.filters.http.router.v3.Router
`)
}

func envoyS7Import(t *testing.T, data []byte) *Model {
	t.Helper()
	m, err := Import(Source{Path: "envoy.yaml", Data: data}, "envoy")
	if err != nil {
		t.Fatalf("import: %v", err)
	}
	return m
}

// Envoy rejects a fill timer below 50ms (local_ratelimit_impl.cc: "local
// rate limit token bucket fill timer must be >= 50ms"): 50ms itself is
// accepted, 49ms is not.
func TestEnvoyFillIntervalFrom50ms(t *testing.T) {
	for _, tc := range []struct {
		fill string
		want bool
	}{{"0.05s", true}, {"0.049s", false}, {"1s", true}} {
		data := envoyS7Config(fmt.Sprintf("                max_tokens: 10\n                tokens_per_fill: 1\n                fill_interval: %s", tc.fill), "")
		m, err := Import(Source{Path: "envoy.yaml", Data: data}, "envoy")
		if !tc.want {
			if err == nil || !strings.Contains(err.Error(), "below 50ms") {
				t.Errorf("fill_interval %s: err %v, want the fill timer refused", tc.fill, err)
			}
			continue
		}
		if err != nil || len(m.Limits) != 1 {
			t.Fatalf("fill_interval %s: err %v, want one limit", tc.fill, err)
		}
		if want := map[string]time.Duration{"0.05s": 50 * time.Millisecond, "1s": time.Second}[tc.fill]; m.Limits[0].Window != want {
			t.Errorf("fill_interval %s: window %v, want %v", tc.fill, m.Limits[0].Window, want)
		}
	}
}

// local_rate_limit.proto, status: "Defaults to 429 (TooManyRequests). If
// this is set to < 400, 429 will be used instead." So a status of 302 gives
// the default (no status option), 400 and 503 are kept.
func TestEnvoyStatusBelow400Is429(t *testing.T) {
	bucket := "                max_tokens: 10\n                tokens_per_fill: 10\n                fill_interval: 1s"
	for _, tc := range []struct {
		code string
		want any
	}{{"302", nil}, {"399", nil}, {"400", int64(400)}, {"503", int64(503)}} {
		m := envoyS7Import(t, envoyS7Config(bucket, "              status: {code: "+tc.code+"}"))
		if len(m.Lanes) != 1 {
			t.Fatalf("status %s: lanes %+v", tc.code, m.Lanes)
		}
		if got := ekLaneField(m.Lanes[0], "status"); got != tc.want {
			t.Errorf("status %s: lane status %v, want %v (problems %v)", tc.code, got, tc.want, m.Problems)
		}
		for _, p := range m.Problems {
			if strings.Contains(p.Message, "status") {
				t.Errorf("status %s: problem %s", tc.code, p)
			}
		}
	}
}
