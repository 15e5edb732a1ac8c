package scenarios

import (
	"fmt"
	"strings"
	"testing"
)

// absorbWorld is a scenario of one product lane with its section sec and the
// lane's own policy for the first limit, pol (variantLimitSpec's flow form;
// "" for none).
func absorbWorld(algorithm, sec, pol string) string {
	own := ""
	if pol != "" {
		own = ", limits: [{" + pol + "}]"
	}
	return fmt.Sprintf(`duration: 10s
limits:
  - {key: ip, limit: 10, window: 1s}
lanes:
  - {algorithm: %s, %s: {%s}%s}
clients:
  - arrivals: [{kind: constant, rate: 20/s}]
`, algorithm, algorithm, sec, own)
}

// A lane's own policy, written into its product section by Marshal, reads
// back as the same scenario: for each product, a policy it can say and one it
// cannot is refused at the lane's limits.
func TestProductPolicyRoundTrips(t *testing.T) {
	for _, c := range []struct {
		algorithm, sec, pol string
		refused             bool // the product cannot say pol
	}{
		{"nginx", "", "limit: 30, window: 1m, burst: 5", false},
		{"nginx", "", "limit: 30, window: 2s", true},
		{"haproxy", "", "limit: 30, window: 2s", false},
		{"haproxy", "", "limit: 30, window: 2s, burst: 5", true},
		{"envoy_local", "", "limit: 30, window: 2s, burst: 5", false},
		{"envoy_local", "refill: stepwise", "limit: 30, window: 2s, burst: 5", false},
		{"envoy_local", "refill: stepwise, max_tokens: 5, tokens_per_fill: 30, fill_interval: 2s", "", false},
		{"kong", "hour: 30, policy: redis", "", false},
		{"kong", "policy: redis", "limit: 30, window: 1m", false},
		{"envoy_ratelimit", "", "limit: 30, window: 1m", false},
		{"envoy_ratelimit", "", "limit: 30, window: 2m", true},
		{"envoy_ratelimit", "", "limit: 30, window: 1h, burst: 5", true},
		{"kong", "", "limit: 30, window: 1h", false},
		{"kong", "", "limit: 30, window: 2h", true},
		{"kong_advanced", "", "limit: 30, window: 90s", false},
		{"kong_advanced", "", "limit: 30, window: 1500ms", true},
		{"traefik", "", "limit: 30, window: 2s, burst: 4", false},
		{"aws_apigw", "", "limit: 30, window: 3s, burst: 4", false},
		{"aws_apigw", "", "limit: 1, window: 3s, burst: 4", true},
		{"aws_quota", "", "limit: 30, window: 24h", false},
		{"aws_quota", "", "limit: 30, window: 25h", true},
		{"aws_waf", "", "limit: 100, window: 2m", false},
		{"cloudflare", "", "limit: 30, window: 1m", false},
		{"cloudflare", "", "limit: 30, window: 1m, burst: 3", true},
	} {
		src := absorbWorld(c.algorithm, c.sec, c.pol)
		s, err := Parse("absorb.yaml", []byte(src))
		if c.refused {
			if err == nil || !strings.Contains(err.Error(), "absorb.yaml:5: lanes[0].limits[0]: ") {
				t.Errorf("%s %s: want an error at lanes[0].limits[0], got %v", c.algorithm, c.pol, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %s: %v", c.algorithm, c.pol, err)
			continue
		}
		t.Run(c.algorithm+" "+strings.ReplaceAll(c.pol, ", ", " "), func(t *testing.T) { assertRoundTrip(t, s) })
	}
}
