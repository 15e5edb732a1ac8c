package scenarios

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// overrideWorld is a scenario of two limits (10 per 1s by ip, and 60 per 1m
// by user, or 100 per 24h for aws_quota, whose periods are days) and one
// product lane p with section sec, and an override of p's limit i to pol
// (overrideSpec's flow form).
func overrideWorld(algorithm, sec string, i int, pol string) string {
	second := "limit: 60, window: 1m"
	if algorithm == "aws_quota" {
		second = "limit: 100, window: 24h"
	}
	override := ""
	if pol != "" {
		override = fmt.Sprintf("overrides:\n  - {lane: p, limit_index: %d, %s}\n", i, pol)
	}
	return fmt.Sprintf(`duration: 10s
limits:
  - {key: ip, limit: 10, window: 1s}
  - {key: user, %s}
lanes:
  - {name: p, algorithm: %s, %s: {%s}}
%sclients:
  - arrivals: [{kind: constant, rate: 20/s}]
`, second, algorithm, algorithm, sec, override)
}

// An override of a product lane is written into the lane's section, in the
// product's words, exactly when the product can say its policy (docs/products.md:
// nginx r/s and r/m, of any limit of the zones; the others the first limit
// only; a burst only where the product has one; each product's own windows),
// and either way the file reads back as the same scenario.
func TestOverridesWrittenInTheProductsWords(t *testing.T) {
	for _, c := range []struct {
		algorithm, sec string
		i              int
		pol            string
		absorbed       bool
	}{
		{"nginx", "", 0, "limit: 30, window: 1s, burst: 5", true},
		{"nginx", "", 0, "limit: 30, window: 1m", true},
		{"nginx", "", 1, "limit: 30, window: 1m", false},
		{"nginx", "zones: [{}, {}]", 1, "limit: 30, window: 1m, burst: 4", true},
		{"nginx", "zones: [{}, {}]", 0, "limit: 30, window: 1s", true},
		{"haproxy", "", 0, "limit: 30, window: 2s", true},
		{"haproxy", "", 0, "limit: 30, window: 2s, burst: 30", true},
		{"haproxy", "", 1, "limit: 30, window: 2s", false},
		{"envoy_ratelimit", "", 0, "limit: 30, window: 1m", true},
		{"envoy_ratelimit", "", 0, "limit: 30, window: 168h", true},
		{"envoy_ratelimit", "", 1, "limit: 30, window: 1m", false},
		{"kong_advanced", "", 0, "limit: 30, window: 90s", true},
		// traefik and aws_apigw lanes have no settings but their policy: it
		// is written as the lane's override
		{"traefik", "average: 30, period: 2s, burst: 4", 0, "", false},
		{"traefik", "average: 30", 0, "", false},
		{"traefik", "", 1, "limit: 30, window: 2s", false},
		{"aws_apigw", "rate_limit: 10, burst_limit: 4", 0, "", false},
		{"aws_apigw", "rate_limit: 0.5", 0, "", false},
		{"aws_quota", "limit: 30, period: day, offset: 2", 0, "", true},
		{"aws_quota", "limit: 30, period: week, offset: 2", 0, "", true},
		{"aws_quota", "limit: 30, period: month, offset: 2", 0, "", true},
		{"aws_waf", "limit: 100, evaluation_window: 2m", 0, "", true},
		{"cloudflare", "requests_per_period: 30, period: 1m", 0, "", true},
		{"haproxy", "period: 2s, limit: 30", 0, "", true},
		{"envoy_ratelimit", "unit: hour, requests_per_unit: 30", 0, "", true},
		{"kong_advanced", "limit: 30, window_size: 90", 0, "", true},
		{"kong", "minute: 30, hour: 500", 0, "", true},
		{"envoy_local", "max_tokens: 5, tokens_per_fill: 30, fill_interval: 2s", 0, "", true},
		{"kong", "day: 3000", 0, "", true},
	} {
		name := fmt.Sprintf("%s %s limit %d %s", c.algorithm, c.sec, c.i, c.pol)
		s, err := Parse("override.yaml", []byte(overrideWorld(c.algorithm, c.sec, c.i, c.pol)))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		out, err := Marshal(s)
		if err != nil {
			t.Errorf("%s: Marshal: %v", name, err)
			continue
		}
		if kept := strings.Contains(string(out), "\noverrides:"); kept == c.absorbed {
			t.Errorf("%s: override kept %v, want %v:\n%s", name, kept, !c.absorbed, out)
		}
		again, err := Parse("override.yaml", out)
		if err != nil {
			t.Errorf("%s: Parse(Marshal): %v\n%s", name, err, out)
			continue
		}
		if want, got := effectiveBursts(*s.Config), effectiveBursts(*again.Config); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read back as\n%+v\nwant\n%+v\n%s", name, got, want, out)
		}
	}
}

// effectiveBursts is c with each override's burst its effective one (a burst
// of 0 is the limit's), as a section's burst reads back explicit.
func effectiveBursts(c sim.Config) sim.Config {
	c.Overrides = slices.Clone(c.Overrides)
	for i := range c.Overrides {
		c.Overrides[i].Policy.Burst = c.Overrides[i].Policy.EffectiveBurst()
	}
	return c
}
