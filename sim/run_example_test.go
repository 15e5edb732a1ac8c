package sim_test

import (
	"context"
	"fmt"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// A client sends 10 requests just before a window boundary and 10 just after,
// against a limit of 10 per second. The fixed window admits all 20 within 200ms;
// the sliding log never more than 10 in any second.
func ExampleRun() {
	cfg := sim.Config{
		Duration: 3 * time.Second,
		Lanes:    []sim.LaneKind{sim.LaneFixedWindow, sim.LaneSlidingLog, sim.LaneTokenBucket},
		Limits:   []sim.Limit{{Key: sim.KeyUser, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Clients: []sim.ClientGroup{{Name: "user", Count: 1, Arrivals: []sim.Arrival{
			{Kind: sim.ArrivalBurst, At: 900 * time.Millisecond, Count: 10, Spread: 100 * time.Millisecond},
			{Kind: sim.ArrivalBurst, At: 1000 * time.Millisecond, Count: 10, Spread: 100 * time.Millisecond},
		}}},
	}
	res, err := sim.Run(context.Background(), cfg, sim.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range res.Lanes {
		fmt.Printf("%-13s admitted %2d, refused %2d, most in any window %2d (%.1f× the limit, from %v)\n",
			l.Lane.Title(), l.Admitted, l.Refused, l.Peak.Count, l.Peak.Ratio, l.Peak.Start)
	}
	// Output:
	// fixed window  admitted 20, refused  0, most in any window 20 (2.0× the limit, from 900ms)
	// sliding log   admitted 10, refused 10, most in any window 10 (1.0× the limit, from 900ms)
	// token bucket  admitted 11, refused  9, most in any window 11 (1.1× the limit, from 900ms)
}

// Stepping a simulation in virtual time, as the live views do.
func ExampleSimulation_RunUntil() {
	cfg := sim.Config{
		Duration: 2 * time.Second,
		Lanes:    []sim.LaneKind{sim.LaneGCRA},
		Limits:   []sim.Limit{{Key: sim.KeyGlobal, Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
		Clients: []sim.ClientGroup{{Count: 1, Arrivals: []sim.Arrival{
			{Kind: sim.ArrivalConstant, Rate: sim.Rate{Count: 10, Per: time.Second}},
		}}},
	}
	s, _ := sim.New(cfg, sim.Options{})
	for _, t := range []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second} {
		s.RunUntil(t)
		lane := s.Snapshot()[0]
		fmt.Printf("t=%v admitted %d refused %d\n", t, lane.Admitted, lane.Refused)
	}
	// Output:
	// t=500ms admitted 6 refused 0
	// t=1s admitted 10 refused 1
	// t=2s admitted 14 refused 6
}

// The lane registry says what each lane is; the default set leaves Vegas out.
func ExampleLanes() {
	classes := map[sim.LaneClass]string{sim.RateLimiter: "rate limiter", sim.ConcurrencyLimiter: "concurrency limiter", sim.ClientGate: "client gate"}
	for _, l := range sim.Lanes() {
		fmt.Printf("%-22s %-29s %-19s default %v\n", l.Name, l.Title, classes[l.Class], l.Default)
	}
	// Output:
	// fixed_window           fixed window                  rate limiter        default true
	// sliding_log            sliding log                   rate limiter        default true
	// sliding_window_counter sliding window counter        rate limiter        default true
	// token_bucket           token bucket                  rate limiter        default true
	// leaky_bucket           leaky bucket                  rate limiter        default true
	// gcra                   GCRA                          rate limiter        default true
	// aimd                   AIMD concurrency              concurrency limiter default true
	// client_throttle        client throttling             client gate         default true
	// vegas                  Vegas concurrency             concurrency limiter default false
	// nginx                  nginx limit_req               rate limiter        default false
	// envoy_local            Envoy local rate limit        rate limiter        default false
	// envoy_ratelimit        Envoy global rate limit       rate limiter        default false
	// kong                   Kong rate-limiting            rate limiter        default false
	// kong_advanced          Kong rate-limiting-advanced   rate limiter        default false
	// traefik                Traefik RateLimit             rate limiter        default false
	// aws_apigw              AWS API Gateway throttling    rate limiter        default false
	// aws_waf                AWS WAF rate-based rule       rate limiter        default false
	// cloudflare             Cloudflare rate limiting rule rate limiter        default false
	// haproxy                HAProxy stick table           rate limiter        default false
	// aws_quota              AWS API Gateway quota         rate limiter        default false
	// gradient2              Gradient2 concurrency         concurrency limiter default false
}

// One algorithm as two lanes: token buckets of burst 5 and burst 20, named
// apart, meet the same burst of 30 requests.
func ExampleVariant() {
	policy := func(burst int64) algorithms.Policy {
		return algorithms.Policy{Limit: 10, Window: time.Second, Burst: burst}
	}
	cfg := sim.Config{
		Duration: 2 * time.Second,
		Limits:   []sim.Limit{{Key: sim.KeyGlobal, Policy: policy(0)}},
		Lanes:    []sim.LaneKind{sim.LaneTokenBucket, sim.LaneTokenBucket},
		Variants: []sim.Variant{{Name: "burst-5"}, {Name: "burst-20"}},
		Overrides: []sim.LaneOverride{
			{Name: "burst-5", Policy: policy(5)},
			{Name: "burst-20", Policy: policy(20)},
		},
		Clients: []sim.ClientGroup{{Count: 1, Arrivals: []sim.Arrival{{Kind: sim.ArrivalBurst, At: time.Second, Count: 30}}}},
	}
	r, err := sim.Run(context.Background(), cfg, sim.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, l := range r.Lanes {
		fmt.Printf("%s (%v): admitted %d of %d\n", l.Name, l.Lane, l.Admitted, l.Attempts)
	}
	// Output:
	// burst-5 (token_bucket): admitted 5 of 30
	// burst-20 (token_bucket): admitted 20 of 30
}
