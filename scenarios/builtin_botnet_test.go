package scenarios

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// botnetRun runs botnet-under-the-limit with sets, as its comments give them.
func botnetRun(t *testing.T, sets ...string) (*Scenario, sim.Result) {
	t.Helper()
	var ss []Set
	for _, a := range sets {
		s, err := ParseSet(a)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
	s, err := LoadBuiltin("botnet-under-the-limit", ss...)
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s, r
}

func successRate(c sim.ClassResult) float64 { return float64(c.Succeeded) / float64(c.Unique) }

// near reports whether got is within frac of want.
func near(got, want, frac float64) bool { return math.Abs(got-want) <= frac*want }

// The claims of botnet-under-the-limit, each from the numbers of its file:
// 200 workers of 100ms serve 2,000/s; 50,000 bots at 3/m and 3,000 shoppers at
// 6/m offer 2,800/s.
func TestBotnetUnderTheLimit(t *testing.T) {
	s, r := botnetRun(t)
	c := s.Config
	perIP := float64(c.Limits[0].Policy.Limit) / c.Limits[0].Policy.Window.Seconds()
	for i, share := range []float64{1, 1.0 / 3} { // shoppers under the limit, each bot under a third of it
		g := c.Clients[i]
		if rate := float64(g.Arrivals[0].Rate.Count) / g.Arrivals[0].Rate.Per.Seconds(); rate >= perIP*share {
			t.Errorf("%s send %.3f/s, not under %.2f of the per-IP %.3f/s", g.Name, rate, share, perIP)
		}
	}
	if c.Clients[1].Count != 50_000 {
		t.Errorf("%d bots, want 50,000", c.Clients[1].Count)
	}
	tb, aimd := r.Lanes[0], r.Lanes[1]
	// The per-IP limit refuses only the scraper: at 5/s for 20s, 100 requests,
	// of which a token bucket of 10 a minute admits its burst of 10 and one
	// every 6s after (at 6s, 12s and 18s): 13, so 87 refused. The backend, busy
	// from the start, serves 2,000/s for the 20s and then the 2,000 queued: 42,000.
	if scraper := tb.Classes[2]; tb.Refused != 87 || scraper.Refused != 87 {
		t.Errorf("the per-IP limit refused %d, %d of them the scraper's; want the scraper's 87", tb.Refused, scraper.Refused)
	}
	if served := float64(tb.Backend.Served); !near(served, 42_000, 0.005) {
		t.Errorf("served %v, want about 2,000/s × 20s + the 2,000 queued = 42,000", served)
	}
	// Each answer waits for the 2,000 queued ahead of it: 1s, then 100ms of work.
	if p99 := tb.Backend.Latency.P99; !near(p99.Seconds(), 1.1, 0.05) {
		t.Errorf("p99 latency %v, want about 1.1s", p99)
	}
	if d := math.Abs(successRate(tb.Classes[0]) - successRate(tb.Classes[1])); d > 0.02 {
		t.Errorf("shoppers and bots served %.3f and %.3f: want alike", successRate(tb.Classes[0]), successRate(tb.Classes[1]))
	}
	// AIMD, a concurrency limit at the service, keeps answers fast but sheds
	// shoppers as often as bots.
	if p99 := aimd.Backend.Latency.P99; p99 > 110*time.Millisecond {
		t.Errorf("AIMD's p99 latency %v, want about 100ms", p99)
	}
	if d := math.Abs(successRate(aimd.Classes[0]) - successRate(aimd.Classes[1])); d > 0.03 {
		t.Errorf("AIMD served shoppers and bots %.3f and %.3f: want alike", successRate(aimd.Classes[0]), successRate(aimd.Classes[1]))
	}
}

// A global concurrency limit of 200, the workers: no queue, so every answer
// takes the 100ms of work; the backend still serves about 2,000/s, and the
// limit refuses shoppers as often as bots.
func TestBotnetUnderAGlobalConcurrencyLimit(t *testing.T) {
	_, r := botnetRun(t, "limits=[{name: per-ip, key: ip, limit: 10, window: 1m}, {name: in-flight, key: global, concurrency: 200}]")
	tb := r.Lanes[0]
	if tb.Backend.Latency.Max != 100*time.Millisecond || tb.Backend.MaxQueue != 0 || tb.InFlight[0].Count != 200 {
		t.Errorf("longest answer %v, most queued %d, most in flight %v: want 100ms, 0 and 200", tb.Backend.Latency.Max, tb.Backend.MaxQueue, tb.InFlight)
	}
	if served := float64(tb.Backend.Served); !near(served, 40_000, 0.02) {
		t.Errorf("served %v, want about 2,000/s × 20s = 40,000", served)
	}
	if tb.RefusedBy[1].Count == 0 || math.Abs(successRate(tb.Classes[0])-successRate(tb.Classes[1])) > 0.02 {
		t.Errorf("refused %d; shoppers and bots served %.3f and %.3f: want alike", tb.RefusedBy[1].Count, successRate(tb.Classes[0]), successRate(tb.Classes[1]))
	}
}

// Stripe's fleet usage shedder keeping a fifth of the workers for critical
// requests: bots are shed once 160 requests are in the backend, so they get
// the 160 less the 30 the shoppers hold (300/s × 100ms): 130 workers, 1,300/s,
// 26,000 in 20s; every shopper is served, each in 100ms.
func TestBotnetUnderFleetUsageShedding(t *testing.T) {
	_, r := botnetRun(t, "backend.shedding={fleet_usage: {reserve: 0.2}}")
	tb := r.Lanes[0]
	shoppers, bots := tb.Classes[0], tb.Classes[1]
	if shoppers.Succeeded != shoppers.Unique || shoppers.Shed != 0 {
		t.Errorf("shoppers: %d of %d served, %d shed; want every one served", shoppers.Succeeded, shoppers.Unique, shoppers.Shed)
	}
	if !near(float64(bots.Succeeded), 26_000, 0.02) {
		t.Errorf("bots served %d, want about (160 − 30) workers × 10/s × 20s = 26,000", bots.Succeeded)
	}
	if tb.Backend.Latency.Max != 100*time.Millisecond {
		t.Errorf("longest answer %v, want 100ms: nothing queued", tb.Backend.Latency.Max)
	}
	if scraper := tb.Classes[2]; len(tb.ShedBy) != 1 || tb.ShedBy[0].Count != bots.Shed+scraper.Shed {
		t.Errorf("shed by %v, want every bot and scraper shed (%d) by fleet_usage", tb.ShedBy, bots.Shed+scraper.Shed)
	}
}
