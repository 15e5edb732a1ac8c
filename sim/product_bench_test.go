package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// productPolicy is a policy every product lane can say: 36,000 a minute (600
// a second), bursts of the limit. nginx reads it as rate=36000r/m, AWS API
// Gateway as 600 a second, AWS WAF and Cloudflare as a 60s window and period,
// HAProxy as http_req_rate(60000), the window products with no burst apart
// from the limit.
var productPolicy = algorithms.Policy{Limit: 36_000, Window: time.Minute}

// productWorld is BenchmarkPoisson100's model (100 Poisson clients at 10 a
// second each, one global limit) on lane, its limit productPolicy: about
// 1,000 arrivals a second against 600, once the first minute's burst is spent.
func productWorld(d time.Duration, lane LaneKind) Config {
	cfg := poisson100(d)
	cfg.Lanes = []LaneKind{lane}
	cfg.Limits[0].Policy = productPolicy
	return cfg
}

// productTwins pairs each product lane with the textbook lane it builds on,
// whose per-event cost it is held to: the token bucket family (Envoy's
// local bucket, Traefik's x/time/rate, API Gateway's bucket) to
// token_bucket, nginx to leaky_bucket (both queue), the fixed-window
// products (envoyproxy/ratelimit, Kong) to fixed_window, and the sliding
// ones (Kong's advanced plugin, Cloudflare, HAProxy's freq_ctr, AWS WAF's
// ring of intervals) to sliding_window_counter.
var productTwins = []struct{ product, twin LaneKind }{
	{LaneNginx, LaneLeakyBucket},
	{LaneEnvoyLocal, LaneTokenBucket},
	{LaneTraefik, LaneTokenBucket},
	{LaneAWSAPIGateway, LaneTokenBucket},
	{LaneEnvoyRateLimit, LaneFixedWindow},
	{LaneKong, LaneFixedWindow},
	{LaneKongAdvanced, LaneSlidingWindowCounter},
	{LaneCloudflare, LaneSlidingWindowCounter},
	{LaneHAProxy, LaneSlidingWindowCounter},
	{LaneAWSWAF, LaneSlidingWindowCounter},
}

// BenchmarkProductLanes is the per-event cost of each product lane and of the
// textbook lanes they build on, on productWorld: compare
// BenchmarkProductLanes/<product> with BenchmarkProductLanes/<twin>.
func BenchmarkProductLanes(b *testing.B) {
	seen := map[LaneKind]bool{}
	for _, p := range productTwins {
		for _, lane := range []LaneKind{p.twin, p.product} {
			if seen[lane] {
				continue
			}
			seen[lane] = true
			b.Run(lane.String(), func(b *testing.B) { benchmarkEvents(b, productWorld(10_000*time.Second, lane)) })
		}
	}
	// The sliding products as the textbook counter decides, counting only what
	// they admit: their refusals then change nothing, as the counter's.
	for name, v := range map[string]Variant{
		"kong_advanced_no_penalty":   {Product: ProductSettings{KongAdvanced: &KongAdvancedSettings{DisablePenalty: true}}},
		"cloudflare_exclude_blocked": {Product: ProductSettings{Cloudflare: &CloudflareSettings{ExcludeBlocked: true}}},
	} {
		lane := LaneKongAdvanced
		if v.Product.Cloudflare != nil {
			lane = LaneCloudflare
		}
		cfg := productWorld(10_000*time.Second, lane)
		cfg.Variants = []Variant{v}
		b.Run(name, func(b *testing.B) { benchmarkEvents(b, cfg) })
	}
}

// TestProductLanesTakeTheirFastPaths checks that each product lane of
// productWorld takes the paths its registry row declares (the kernel for an
// Admitter, the direct path for every one) and meets both verdicts, and that
// under a limit it never reaches (every request admitted at once, on the fast
// path alone) it allocates nothing per event once running.
func TestProductLanesTakeTheirFastPaths(t *testing.T) {
	for _, p := range productTwins {
		info := p.product.Info()
		s, err := New(productWorld(100*time.Second, p.product), Options{})
		if err != nil {
			t.Fatal(err)
		}
		l := s.lanes[0]
		if got, want := l.kern.fits && l.quick != nil, info.fast&fastAdmits != 0; got != want {
			t.Errorf("lane %s: in the kernel %v, want %v (fastAdmits)", info.Name, got, want)
		}
		if !l.direct.known() {
			t.Errorf("lane %s: not on the direct path", info.Name)
		}
		res, err := s.RunToEnd(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		if lr := res.Lanes[0]; lr.Admitted == 0 || lr.Admitted == lr.Attempts {
			t.Errorf("lane %s: %d of %d attempts admitted, want some refused or delayed and some admitted", info.Name, lr.Admitted, lr.Attempts)
		}

		// No allocation per event, refusals or not: the world above, and
		// 180,000 a minute (3,000 a second, bursts of as many) against
		// 1,000 a second, every request admitted at once.
		for _, limit := range []int64{0, 180_000} {
			cfg := productWorld(100*time.Second, p.product)
			if limit > 0 {
				cfg.Limits[0].Policy.Limit = limit
			}
			if s, err = New(cfg, Options{}); err != nil {
				t.Fatal(err)
			}
			s.RunUntil(10 * time.Second)
			at := 10 * time.Second
			before := s.Events()
			allocs := testing.AllocsPerRun(100, func() {
				at += 100 * time.Millisecond
				s.RunUntil(at)
			})
			if s.Events()-before < 1000 {
				t.Fatalf("lane %s: only %d events ran", info.Name, s.Events()-before)
			}
			if allocs > 0 {
				t.Errorf("lane %s, limit %d: %.1f allocations per %d events, want 0", info.Name, cfg.Limits[0].Policy.Limit, allocs, (s.Events()-before)/101)
			}
		}
	}
}
