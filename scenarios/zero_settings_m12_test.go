package scenarios

import (
	"fmt"
	"strings"
	"testing"
)

// TestProductCountsAndPeriodsRefuseZero: a product's count or period of 0 is
// no setting the product takes (a rate of nothing, a bucket of no tokens, a
// window of no time; envoyproxy/ratelimit's requests_per_unit: 0 is a block
// list rlsim import reports as a problem): written explicitly in a lane's
// section it is refused at its line and field, never read as "unset, take
// the limit's", and so is a negative one. A client's cost, too.
func TestProductCountsAndPeriodsRefuseZero(t *testing.T) {
	for _, c := range []struct{ algorithm, field, zero, neg string }{
		{"haproxy", "period", "0s", "-1s"}, {"haproxy", "limit", "0", "-1"}, {"haproxy", "expire", "0s", "-1s"},
		{"envoy_local", "max_tokens", "0", "-1"}, {"envoy_local", "tokens_per_fill", "0", "-1"}, {"envoy_local", "fill_interval", "0s", "-1s"},
		{"envoy_ratelimit", "requests_per_unit", "0", "-1"},
		{"kong", "second", "0", "-1"}, {"kong", "minute", "0", "-1"}, {"kong", "hour", "0", "-1"}, {"kong", "day", "0", "-1"},
	} {
		for _, v := range []string{c.zero, c.neg} {
			src := overrideWorld(c.algorithm, c.field+": "+v, 0, "")
			_, err := Parse("zero.yaml", []byte(src))
			line := 1 + strings.Count(src[:strings.Index(src, "{name: p")], "\n")
			want := fmt.Sprintf("zero.yaml:%d: lanes[0].%s.%s: must be positive, got %s", line, c.algorithm, c.field, v)
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s %s: %v; want %q", c.algorithm, c.field+": "+v, err, want)
			}
		}
	}
	for _, v := range []string{"0", "-1"} {
		src := "duration: 10s\nlimits: [{key: ip, limit: 10, window: 1s}]\nclients:\n  - cost: " + v + "\n    arrivals: [{kind: constant, rate: 20/s}]\n"
		_, err := Parse("cost.yaml", []byte(src))
		if want := "cost.yaml:4: clients[0].cost: must be positive, got " + v; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("cost: %s: %v; want %q", v, err, want)
		}
	}
}
