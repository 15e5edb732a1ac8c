package importer

import "testing"

// Each detector's rule, clause by clause: what it needs, and that one clause
// alone is not enough.
func TestDetectorClauses(t *testing.T) {
	for _, c := range []struct {
		product, path, data string
		want                bool
	}{
		{"haproxy", "h.cfg", "frontend web\n  stick-table type ip size 1k\n", true},
		{"haproxy", "h.cfg", "\tbackend b\n  http-request track-sc0 src\n", true},
		{"haproxy", "h.cfg", "listen l\n  track-sc1 src\n", true},
		{"haproxy", "h.cfg", "defaults\nstick-table x\n", true},
		{"haproxy", "h.cfg", "frontend web\n  bind :80\n", false},
		{"haproxy", "h.cfg", "global\n  stick-table type ip\n", false},
		{"haproxy", "h.cfg", "frontends web\n  stick-table type ip\n", false},

		{"nginx", "n.conf", "http {\n", true},
		{"nginx", "n.conf", "  limit_req_zone $binary_remote_addr zone=one:10m rate=1r/s;\n", true},
		{"nginx", "n.conf", "location /a { # c\r\n", true},
		{"nginx", "n.conf", "events{\n", true},
		{"nginx", "n.conf", "httpd {\n", false},
		{"nginx", "n.conf", "server x\n", false},
		{"nginx", "n.conf", "# http {\n", false},

		{"envoy", "e.yaml", "name: envoy.filters.http.local_ratelimit\n", true},
		{"envoy", "e.yaml", "'@type': type.googleapis.com/envoy.extensions.filters.http.local_ratelimit.v3.LocalRateLimit\n", true},
		{"envoy", "e.yaml", "static_resources:\n  x: http_connection_manager\n", true},
		{"envoy", "e.yaml", "static_resources:\n", false},
		{"envoy", "e.yaml", "http_connection_manager\n", false},
		{"envoy", "e.yaml", "domain: api\ndescriptors:\n  - key: a\n", true},
		{"envoy", "e.yaml", "domain: api\n", false},
		{"envoy", "e.yaml", "  domain: api\ndescriptors:\n", false},

		{"kong", "k.yaml", "_format_version: \"3.0\"\n", true},
		{"kong", "k.json", `{"_format_version": "3.0"}`, true},
		{"kong", "k.yaml", "  _format_version: \"3.0\"\n", false},
		{"kong", "k.yaml", "format_version: 3\n", false},

		{"traefik", "t.yml", "http:\n  middlewares:\n    a:\n      rateLimit: {}\n", true},
		{"traefik", "t.yaml", "middlewares ratelimit", true},
		{"traefik", "t.toml", "[http.middlewares.a.RateLimit]\n", true},
		{"traefik", "traefik", "middlewares rateLimit", true},
		{"traefik", "t.YML", "middlewares rateLimit", true},
		{"traefik", "t.json", "middlewares rateLimit", false},
		{"traefik", "t.yml", "middlewares: {}\n", false},
		{"traefik", "t.yml", "rateLimit: {}\n", false},
	} {
		var got, found bool
		for _, p := range products {
			if p.name == c.product {
				got, found = p.detect(c.path, []byte(c.data)), true
			}
		}
		if !found || got != c.want {
			t.Errorf("%s detector on %s %q: %v (found %v), want %v", c.product, c.path, c.data, got, found, c.want)
		}
	}
}
