package sim

// The client-throttling lane's settings: their defaults, checks and gate.

import (
	"strings"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim/engine"
)

// throttleBuckets is how many time buckets the adaptive throttle counts its
// period in: 24 buckets of 5 s over the default 2 minutes.
const throttleBuckets = 24

func throttleDefaults(c *Config) {
	if c.Throttle.K == 0 {
		c.Throttle.K = 2
	}
	if c.Throttle.Period == 0 {
		c.Throttle.Period = 2 * time.Minute
	}
	if c.Throttle.Server == LaneDefault {
		c.Throttle.Server = LaneTokenBucket
	}
}

func checkThrottle(ck *checker, c *Config) {
	t := c.Throttle
	ck.atMostTime("throttle.period", t.Period)
	if t.K != 0 && !(t.K >= 1) {
		ck.add("throttle.k", "must be at least 1, got %v", t.K)
	}
	if t.Period < 0 {
		ck.add("throttle.period", "must not be negative, got %v", t.Period)
	}
	if t.Period%throttleBuckets != 0 {
		ck.add("throttle.period", "must split into %d equal whole-nanosecond buckets (like 12s or 2m), got %v", throttleBuckets, t.Period)
	}
	if t.Server != LaneDefault && (!t.Server.known() || t.Server.Info().Class != RateLimiter) {
		ck.add("throttle.server", "must be one of the per-key lanes (%s), got %v", strings.Join(LanesOf(RateLimiter), ", "), t.Server)
	}
}

// throttleGate is Google SRE's adaptive throttle run by every client, each with
// its own state and random draws.
type throttleGate struct {
	t       *algorithms.Throttle
	clients []throttledClient
}

// throttledClient is a client's adaptive throttle and its random draws.
type throttledClient struct {
	state algorithms.ThrottleState
	rnd   engine.Stream
	drop  float64 // the drop probability at the client's latest send decision
}

func newThrottleGate(c *Config, clients int) (clientGate, error) {
	t, err := algorithms.NewThrottle(algorithms.ThrottleConfig{K: c.Throttle.K, Period: c.Throttle.Period, Buckets: throttleBuckets})
	if err != nil {
		return nil, err
	}
	g := &throttleGate{t: t, clients: ownLines[throttledClient](clients)}
	for i := range g.clients {
		g.clients[i].rnd = engine.NewStream(c.Seed, labelDrop, uint64(i))
	}
	return g, nil
}

func (g *throttleGate) allow(c int32, now time.Duration) bool {
	tc := &g.clients[c]
	allowed, drop := g.t.Decide(&tc.state, now, tc.rnd.Float64())
	tc.drop = drop
	return allowed
}

func (g *throttleGate) lastDrop(c int32) float64 { return g.clients[c].drop }

func (g *throttleGate) answered(c int32, now time.Duration, accepted bool) {
	g.t.Answered(&g.clients[c].state, now, accepted)
}
