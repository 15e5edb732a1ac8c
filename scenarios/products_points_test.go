package scenarios

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// nginx-delay: limit_req's burst= decides which requests of a page load pass
// (burst+1 of them at once), delay= and nodelay only when: plain burst queues
// every excess request one emission interval apart, delay=N lets the first N
// excess requests through at once, nodelay queues none. The figures are
// nginx's rule applied by hand to the scenario's page loads, not the lanes'
// output.
func TestNginxDelayMakesItsPoint(t *testing.T) {
	s, r := runBuiltinResult(t, "nginx-delay")
	const rate, burst, pageSize = 5, 12, 20
	interval := time.Second / rate
	g := s.Config.Clients[0]
	pages := int64(g.Count) * int64((s.Config.Duration-1)/g.Arrivals[0].Idle) // a page after each idle 10s within 30s
	if g.Arrivals[0].Count != pageSize || pages != 6 {
		t.Fatalf("the scenario's page loads changed: %d requests, %d page loads", g.Arrivals[0].Count, pages)
	}
	for _, tc := range []struct {
		lane   string
		queued int64 // excess requests of a page that wait: burst less the delay= ones
	}{{"burst-12", burst}, {"delay-8", burst - 8}, {"nodelay", 0}} {
		l := laneNamed(t, &r, tc.lane)
		if l.Lane != sim.LaneNginx {
			t.Errorf("%s runs %v, want nginx", tc.lane, l.Lane)
		}
		if l.Admitted != pages*(burst+1) || l.Refused != pages*(pageSize-burst-1) {
			t.Errorf("%s admitted %d and refused %d, want %d and %d: burst+1 of each page pass, in every lane",
				tc.lane, l.Admitted, l.Refused, pages*(burst+1), pages*(pageSize-burst-1))
		}
		if l.Delayed != pages*tc.queued || l.Delay.Max != time.Duration(tc.queued)*interval {
			t.Errorf("%s delayed %d, the longest %v; want %d, the longest %v", tc.lane, l.Delayed, l.Delay.Max,
				pages*tc.queued, time.Duration(tc.queued)*interval)
		}
	}
}

func laneNamed(t *testing.T, r *sim.Result, name string) sim.LaneResult {
	t.Helper()
	for _, l := range r.Lanes {
		if l.Name == name {
			return l
		}
	}
	t.Fatalf("no lane %s", name)
	return sim.LaneResult{}
}

// runBuiltin runs built-in name and gives its lanes by name.
func runBuiltin(t *testing.T, name string) (*Scenario, map[string]sim.LaneResult) {
	t.Helper()
	s, r := runBuiltinResult(t, name)
	lanes := map[string]sim.LaneResult{}
	for _, l := range r.Lanes {
		lanes[l.Name] = l
	}
	return s, lanes
}

// haproxy-penalty: HAProxy counts the scraper's refused requests, so after its
// first 10 (one period's limit) it is refused for the rest of the run; the
// sliding window counter, counting only what it admits, serves it at the
// limit's rate. The users, far below the limit, are never refused by either.
func TestHAProxyPenaltyMakesItsPoint(t *testing.T) {
	s, lanes := runBuiltin(t, "haproxy-penalty")
	limit := s.Config.Limits[0].Policy.Limit
	seconds := int64(s.Config.Duration / time.Second)
	hap, swc := class(lanes["haproxy"], "scraper"), class(lanes["sliding_window_counter"], "scraper")
	if lanes["haproxy"].Lane != sim.LaneHAProxy || hap.Admitted != limit || hap.Attempts != 20*seconds {
		t.Errorf("haproxy admitted the scraper %d of %d, want its first %d only", hap.Admitted, hap.Attempts, limit)
	}
	if swc.Admitted <= 500 {
		t.Errorf("the sliding window counter admitted the scraper %d, want over 500", swc.Admitted)
	}
	for _, name := range []string{"haproxy", "sliding_window_counter"} {
		if u := class(lanes[name], "users"); u.Refused != 0 || u.Admitted == 0 {
			t.Errorf("%s refused the users %d times (admitted %d), want never", name, u.Refused, u.Admitted)
		}
	}
	if lanes["haproxy"].RefusalStatus != 429 {
		t.Errorf("haproxy lane refuses with %d, want the 429 its status option says", lanes["haproxy"].RefusalStatus)
	}
}

// envoy-stepwise: a bucket of 2 filled with 10 tokens a second in one step
// serves a steady client max_tokens a fill; the continuous refill serves it
// whole.
func TestEnvoyStepwiseMakesItsPoint(t *testing.T) {
	s, lanes := runBuiltin(t, "envoy-stepwise")
	seconds := int64(s.Config.Duration / time.Second)
	step, cont := lanes["stepwise"], lanes["continuous"]
	if step.Attempts != 10*seconds || step.Admitted != 2*seconds {
		t.Errorf("stepwise admitted %d of %d, want max_tokens (2) a second: %d", step.Admitted, step.Attempts, 2*seconds)
	}
	if cont.Admitted != cont.Attempts || cont.Attempts != 10*seconds {
		t.Errorf("continuous admitted %d of %d, want all", cont.Admitted, cont.Attempts)
	}
}

// kong-local-pods: with policy local each of the 3 pods counts alone: the
// fleet admits 3 times the limit in a window, each pod the limit.
func TestKongLocalPodsMakesItsPoint(t *testing.T) {
	for _, n := range []int{1, 3, 6} {
		for _, state := range []sim.StateKind{sim.StateLocal, sim.StateShared} {
			lanes := runConfig(t, "kong-local-pods", func(c *sim.Config) {
				c.Topology.Replicas = []sim.ReplicaStep{{Count: n}}
				c.Limits[0].State = state
			}, sim.Options{})
			lt := lanes[sim.LaneKong].Topology.Limits[0]
			want := int64(100)
			if state == sim.StateLocal {
				want *= int64(n)
			}
			if lt.Fleet.Count != want {
				t.Errorf("%d pods, %v: the fleet admitted %d in a minute, want %d", n, state, lt.Fleet.Count, want)
			}
		}
	}
}

// aws-waf-first-period: WAF decides at its checks, every 10s: the attacker's
// requests before the first check all pass (50/s × 10s), and from it on the
// trailing 5-minute count keeps it blocked; a token bucket of the same limit
// admits its burst and the refill.
func TestAWSWAFFirstPeriodMakesItsPoint(t *testing.T) {
	_, lanes := runBuiltin(t, "aws-waf-first-period")
	waf, tb := lanes["waf"], lanes["token_bucket"]
	if waf.Admitted != 50*10 || waf.Peak.Count != 500 || waf.Peak.Limit != 100 {
		t.Errorf("waf admitted %d (peak %d against %d), want 500: every request before the first check", waf.Admitted, waf.Peak.Count, waf.Peak.Limit)
	}
	// The bucket: 100 at once, then 100 per 300s for the minute: 20 more, less
	// the one the last instant has not refilled.
	if tb.Admitted < 119 || tb.Admitted > 120 {
		t.Errorf("token bucket admitted %d, want the burst of 100 and about 20 refilled", tb.Admitted)
	}
}

// traefik-burst: with burst 1 each request of the page load gets the next
// 10ms slot and waits at most 5ms for it, so of 10 requests 4ms apart those
// at 0, 8, 16, 28 and 36ms pass (the last four after 2, 4, 2 and 4ms, less
// the nanosecond x/time/rate's float64 arithmetic loses) and the other five
// are refused; with burst 10 the whole page passes at once.
func TestTraefikBurstMakesItsPoint(t *testing.T) {
	s, lanes := runBuiltin(t, "traefik-burst")
	pages := int64(s.Config.Duration / (s.Config.Clients[0].Arrivals[0].Idle + 40*time.Millisecond))
	def, ten := lanes["default-burst"], lanes["burst-10"]
	if def.Attempts != 10*pages || def.Admitted != 5*pages || def.Delayed != 4*pages ||
		def.Delay.Max <= 4*time.Millisecond-time.Microsecond || def.Delay.Max > 4*time.Millisecond {
		t.Errorf("default burst: %d pages: admitted %d of %d, %d delayed (longest %v); want 5 a page, 4 delayed, the longest 4ms",
			pages, def.Admitted, def.Attempts, def.Delayed, def.Delay.Max)
	}
	if ten.Admitted != ten.Attempts || ten.Delayed != 0 {
		t.Errorf("burst 10 admitted %d of %d (%d delayed), want every request at once", ten.Admitted, ten.Attempts, ten.Delayed)
	}
}
