package importer

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

func s7Import(t *testing.T, path, product, text string) *Model {
	t.Helper()
	m, err := Import(Source{Path: path, Data: []byte(text)}, product)
	if err != nil {
		t.Fatalf("import %s: %v", path, err)
	}
	return m
}

// Kong's rate-limiting schema (validate_periods_order, schema.lua) refuses
// a longer period's limit strictly lower than a shorter one's (v2 < v1): a
// minute limit equal to the second limit is kept, a lower one is not.
func TestKongPeriodLimitsMayBeEqual(t *testing.T) {
	conf := func(second, minute int) string {
		return `_format_version: "3.0"
services:
  - name: s
    url: http://example.com
    routes:
      - name: r
        paths: [/a]
plugins:
  - name: rate-limiting
    config:
      second: ` + strconv.Itoa(second) + `
      minute: ` + strconv.Itoa(minute) + `
      policy: local
`
	}
	m := s7Import(t, "kong.yaml", "kong", conf(5, 5))
	if len(m.Limits) != 2 || m.Limits[0].Window != time.Second || m.Limits[1].Window != time.Minute || m.Limits[1].Limit != 5 {
		t.Errorf("second 5, minute 5: limits %+v, want both (Kong refuses only a lower one)", m.Limits)
	}
	for _, p := range m.Problems {
		if strings.Contains(p.Message, "cannot be lower") {
			t.Errorf("second 5, minute 5: problem %s", p)
		}
	}
	m = s7Import(t, "kong.yaml", "kong", conf(5, 4))
	if len(m.Limits) != 1 || m.Limits[0].Window != time.Second {
		t.Errorf("second 5, minute 4: limits %+v, want the second's alone", m.Limits)
	}
}

// Traefik's ratelimiter (pkg/middlewares/ratelimiter/rate_limiter.go):
// a period of 0 is the default, one second; a negative one is refused.
func TestTraefikZeroPeriodIsASecond(t *testing.T) {
	m := s7Import(t, "dynamic.yml", "traefik", `http:
  routers:
    web:
      rule: "Host(`+"`example.com`"+`)"
      service: web
      middlewares: [rl]
  middlewares:
    rl:
      rateLimit:
        average: 100
        period: 0
        burst: 200
  services:
    web:
      loadBalancer:
        servers:
          - url: "http://10.0.0.10:8080"
`)
	if len(m.Limits) != 1 || m.Limits[0].Window != time.Second || m.Limits[0].Limit != 100 {
		t.Errorf("period 0: limits %+v, want 100 per 1s", m.Limits)
	}
}

// TOML 1.0 integers: "Leading zeros are not allowed", but 0 itself (and
// +0, -0) is an integer.
func TestTOMLZeroIsAnInteger(t *testing.T) {
	for _, tc := range []struct {
		w  string
		ok bool
	}{{"0", true}, {"+0", true}, {"-0", true}, {"00", false}, {"01", false}, {"10", true}} {
		n, ok := tomlInt(tc.w)
		if ok != tc.ok || ok && n != map[string]int64{"0": 0, "+0": 0, "-0": 0, "10": 10}[tc.w] {
			t.Errorf("tomlInt(%q) = %d, %v; want ok %v", tc.w, n, ok, tc.ok)
		}
	}
}

// The example run lasts three of the longest window, at least 10s and at
// most 24h (clients.go, exampleDuration).
func TestExampleDurationIsThreeWindows(t *testing.T) {
	for _, tc := range []struct{ window, want time.Duration }{
		{time.Minute, 3 * time.Minute},
		{5 * time.Second, 15 * time.Second},
		{time.Second, 10 * time.Second},
		{12 * time.Hour, 24 * time.Hour},
	} {
		m := &Model{Limits: []Limit{{Limit: 1, Window: time.Second}, {Limit: 1, Window: tc.window}}}
		if got := exampleDuration(m); got != tc.want {
			t.Errorf("longest window %v: duration %v, want %v", tc.window, got, tc.want)
		}
	}
}
