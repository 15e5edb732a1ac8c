package sim

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// hourly is a limit of one request an hour: the first request passes, every
// other is refused for the whole run.
var hourly = []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1, Window: time.Hour}}}

// A client with a 40ms round trip retrying at once, forever: its refused
// request reaches the limiter 20ms after it is sent and each retry 40ms after
// the last, so in a run that ends at 1s (+1ns drain) it tries at 20ms + 40ms×k
// for k = 0…24 — 25 attempts a second, not one per nanosecond.
func TestRoundTripBoundsImmediateRetries(t *testing.T) {
	cfg := Config{Duration: time.Second, Drain: 1, Lanes: []LaneKind{LaneFixedWindow}, Limits: hourly,
		Clients: []ClientGroup{{Count: 1, RTT: 40 * time.Millisecond, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 2}},
			Retry: Retry{Kind: RetryImmediate}}}}
	var log traceLog
	lane := mustRun(t, cfg, Options{Trace: &log}).Lanes[0]
	at := attemptsAt(&log, LaneFixedWindow)
	if len(at) != 25 {
		t.Fatalf("request 2 made %d attempts, want 25 (at 20ms + 40ms×k ≤ 1s)", len(at))
	}
	for k, a := range at {
		if want := 20*time.Millisecond + time.Duration(k)*40*time.Millisecond; a != want {
			t.Errorf("attempt %d at %v, want %v", k+1, a, want)
		}
	}
	if lane.Attempts != 26 || lane.Succeeded != 1 || lane.Pending != 1 {
		t.Errorf("attempts %d succeeded %d pending %d, want 26, 1, 1", lane.Attempts, lane.Succeeded, lane.Pending)
	}
	// Request 1, admitted at 20ms, is heard at 40ms: its time to success is the round trip.
	if got := lane.Classes[0].TimeToSuccess.Max; got != 40*time.Millisecond {
		t.Errorf("time to success %v, want the round trip 40ms", got)
	}
}

// Three requests at 0 on one server of 1s, no queue limit: they finish at 1s,
// 2s and 3s (+ the round trip). A deadline abandons every answer heard after it;
// the server still spent each one's second, wasted.
func TestDeadlineAbandonsLateAnswersAndCountsWastedWork(t *testing.T) {
	for _, tt := range []struct {
		rtt, deadline        time.Duration
		succeeded, abandoned int64
		wasted               time.Duration
	}{
		{0, 1500 * time.Millisecond, 1, 2, 2 * time.Second},
		{200 * time.Millisecond, 1200 * time.Millisecond, 1, 2, 2 * time.Second}, // heard at 1.2s: within
		{200 * time.Millisecond, 1200*time.Millisecond - 1, 0, 3, 3 * time.Second},
		{0, 3 * time.Second, 3, 0, 0},
	} {
		cfg := Config{Duration: 5 * time.Second, Lanes: []LaneKind{LaneTokenBucket},
			Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 100, Window: time.Second}}},
			Clients: []ClientGroup{{Count: 1, RTT: tt.rtt, Deadline: tt.deadline, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 3}}}},
			Backend: &Backend{Capacity: 1, QueueSize: 10, Service: Service{Mean: time.Second}}}
		l := mustRun(t, cfg, Options{}).Lanes[0]
		if l.Succeeded != tt.succeeded || l.Abandoned != tt.abandoned || l.GaveUp != tt.abandoned || l.WastedWork != tt.wasted {
			t.Errorf("rtt %v deadline %v: succeeded %d abandoned %d gave up %d wasted %v, want %d, %d, %d, %v",
				tt.rtt, tt.deadline, l.Succeeded, l.Abandoned, l.GaveUp, l.WastedWork, tt.succeeded, tt.abandoned, tt.abandoned, tt.wasted)
		}
		if l.Backend.Served != 3 || l.Classes[0].Abandoned != tt.abandoned {
			t.Errorf("deadline %v: served %d, class abandoned %d, want 3 and %d", tt.deadline, l.Backend.Served, l.Classes[0].Abandoned, tt.abandoned)
		}
	}
}

// A refused request retried every delay stops at its 1s deadline: a retry that
// would be sent at or after it is not sent.
func TestDeadlineStopsRetries(t *testing.T) {
	for _, tt := range []struct {
		delay    time.Duration
		attempts int
	}{{300 * time.Millisecond, 4}, {250 * time.Millisecond, 4}, {250*time.Millisecond - 1, 5}} {
		cfg := Config{Duration: 5 * time.Second, Lanes: []LaneKind{LaneFixedWindow}, Limits: hourly,
			Clients: []ClientGroup{{Count: 1, Deadline: time.Second, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 2}},
				Retry: Retry{Kind: RetryFixed, Delay: tt.delay}}}}
		var log traceLog
		l := mustRun(t, cfg, Options{Trace: &log}).Lanes[0]
		if at := attemptsAt(&log, LaneFixedWindow); len(at) != tt.attempts {
			t.Errorf("delay %v: %d attempts %v, want %d", tt.delay, len(at), at, tt.attempts)
		}
		if l.Abandoned != 1 || l.Pending != 0 {
			t.Errorf("delay %v: abandoned %d pending %d, want 1, 0", tt.delay, l.Abandoned, l.Pending)
		}
	}
}

// A burst of n requests at 0 against a limit that admits one: n−1 are
// refused and retried at once, forever, but a budget of ratio 0.5 holds n×1000
// tokens and a retry costs 2000: ⌊n/2⌋ retries are sent, the refusals after
// them given up. With n = 10 the last retry takes the budget to exactly 0.
func TestRetryBudgetBoundsRetriesInARun(t *testing.T) {
	for _, n := range []int{9, 10} {
		cfg := Config{Duration: time.Second, Lanes: []LaneKind{LaneFixedWindow}, Limits: hourly,
			Clients: []ClientGroup{{Count: 1, RTT: 40 * time.Millisecond, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: n}},
				Retry: Retry{Kind: RetryImmediate, Budget: &RetryBudget{Ratio: 0.5, TTL: 10 * time.Second}}}}}
		l := mustRun(t, cfg, Options{}).Lanes[0]
		retries := int64(n / 2)
		if got := l.Attempts - l.Unique; got != retries {
			t.Errorf("n=%d: %d retries, want %d", n, got, retries)
		}
		// Every refused request is given up: n−1 first refusals, of which
		// retries were retried and refused again, each then denied.
		if l.RetriesDenied != int64(n-1) || l.GaveUp != int64(n-1) || l.Classes[0].RetriesDenied != int64(n-1) {
			t.Errorf("n=%d: denied %d gave up %d, want %d", n, l.RetriesDenied, l.GaveUp, n-1)
		}
	}
}

// On random traffic in a run shorter than the budget's ttl, no client retries
// more than its requests × 1000/withdrawal + the reserve allow.
func TestRetryBudgetHoldsOnRandomTraffic(t *testing.T) {
	for seed := range uint64(6) {
		ratio := []float64{0, 0.1, 0.3, 1}[seed%4]
		minPer := int(seed % 3)
		if ratio == 0 && minPer == 0 {
			minPer = 2
		}
		budget := RetryBudget{Ratio: ratio, MinPerSecond: minPer, TTL: 10 * time.Second}
		cfg := Config{Duration: 3 * time.Second, Drain: time.Second, Seed: seed, Lanes: []LaneKind{LaneTokenBucket},
			Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 5, Window: time.Second}}},
			Clients: []ClientGroup{{Count: 4, RTT: time.Duration(1+seed) * 7 * time.Millisecond,
				Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 20, Per: time.Second}}},
				Retry:    Retry{Kind: RetryImmediate, Budget: &budget}}}}
		var log traceLog
		l := mustRun(t, cfg, Options{Trace: &log}).Lanes[0]
		b := newRetryBudget(budget)
		requests, retries := map[int]int64{}, map[int]int64{}
		for _, r := range log.recs {
			switch {
			case r.Event == TraceSuccess:
			case r.Attempt == 1:
				requests[r.Client]++
			default:
				retries[r.Client]++
			}
		}
		for c, n := range retries {
			if n*b.withdrawal > requests[c]*b.deposit+b.reserve {
				t.Errorf("seed %d: client %d retried %d times on %d requests (withdrawal %d, reserve %d)", seed, c, n, requests[c], b.withdrawal, b.reserve)
			}
		}
		if l.RetriesDenied == 0 {
			t.Errorf("seed %d: the budget denied nothing: the test proves nothing", seed)
		}
	}
}

// The Go API refuses what the YAML does: NaN, infinite and negative numbers.
func TestValidateTimeFields(t *testing.T) {
	base := func() Config {
		return Config{Duration: time.Second, Limits: hourly, Clients: []ClientGroup{{Count: 1,
			Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 1}}, Retry: Retry{Kind: RetryFixed, Delay: time.Millisecond}}},
			Backend: &Backend{Capacity: 1, Service: Service{Mean: time.Millisecond}}}
	}
	for _, tt := range []struct {
		name, want string
		bad        func(c *Config)
	}{
		{"negative rtt", "clients[0].rtt", func(c *Config) { c.Clients[0].RTT = -1 }},
		{"negative deadline", "clients[0].deadline", func(c *Config) { c.Clients[0].Deadline = -1 }},
		{"NaN ratio", "clients[0].retry.budget.ratio", func(c *Config) { c.Clients[0].Retry.Budget = &RetryBudget{Ratio: math.NaN()} }},
		{"infinite ratio", "clients[0].retry.budget.ratio", func(c *Config) { c.Clients[0].Retry.Budget = &RetryBudget{Ratio: math.Inf(1)} }},
		{"negative min", "clients[0].retry.budget.min_per_second", func(c *Config) {
			c.Clients[0].Retry.Budget = &RetryBudget{Ratio: 0.1, MinPerSecond: -1}
		}},
		{"negative timeout", "clients[0].timeout", func(c *Config) { c.Clients[0].Timeout = -1 }},
		{"a timeout within the round trip", "clients[0].timeout", func(c *Config) { c.Clients[0].Timeout, c.Clients[0].RTT = time.Millisecond, time.Millisecond }},
		{"NaN service factor", "clients[0].service_factor", func(c *Config) { c.Clients[0].ServiceFactor = math.NaN() }},
		{"infinite service factor", "clients[0].service_factor", func(c *Config) { c.Clients[0].ServiceFactor = math.Inf(1) }},
		{"negative service factor", "clients[0].service_factor", func(c *Config) { c.Clients[0].ServiceFactor = -1 }},
		{"a service factor and no backend", "clients[0].service_factor", func(c *Config) { c.Clients[0].ServiceFactor, c.Backend = 2, nil }},
		{"unknown discipline", "backend.discipline", func(c *Config) { c.Backend.Discipline = 9 }},
		{"negative codel", "backend.codel", func(c *Config) { c.Backend.CoDel = &CoDel{Interval: -1} }},
		{"immediate forever at one instant", "clients[0].retry.max_attempts", func(c *Config) { c.Clients[0].Retry = Retry{Kind: RetryImmediate} }},
	} {
		c := base()
		tt.bad(&c)
		if err := c.Validate(); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: Validate() = %v, want an error naming %s", tt.name, err, tt.want)
		}
	}
	c := base()
	c.Clients[0].RTT, c.Clients[0].Retry = time.Millisecond, Retry{Kind: RetryImmediate}
	if err := c.Validate(); err != nil {
		t.Errorf("immediate retries over a round trip: %v", err)
	}
}

// A pacing client over a 100ms round trip: request 1 reaches the limiter at
// 50ms and is admitted with no quota left and a reset the header rounds to 1s;
// the client hears it at 100ms, holds until 1.1s, and request 2, held, reaches
// the limiter at 1.15s.
func TestPacingHoldsAcrossTheRoundTrip(t *testing.T) {
	cfg := Config{Duration: 2 * time.Second, Lanes: []LaneKind{LaneFixedWindow},
		Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 1, Pace: true, RTT: 100 * time.Millisecond, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 2}}}}}
	var log traceLog
	mustRun(t, cfg, Options{Trace: &log})
	if at := attemptsAt(&log, LaneFixedWindow); len(at) != 1 || at[0] != 1150*time.Millisecond {
		t.Errorf("request 2 attempted at %v, want [1.15s]", at)
	}
}

// An exponential round trip of mean 40ms, drawn afresh for every attempt and
// halved each way: a gap between tries of a loop is the back half of one draw
// and the front half of the next, of mean 40ms and standard deviation
// √(2×40²)/2 ≈ 28ms, so in 20s a refused request makes 500 tries, give or take
// 28ms×√500/40ms ≈ 16 (the test allows four of those). Every lane draws the
// same trip for the same attempt.
func TestExponentialRoundTrip(t *testing.T) {
	cfg := Config{Duration: 20 * time.Second, Drain: 1, Lanes: []LaneKind{LaneFixedWindow, LaneSlidingLog}, Limits: hourly,
		Clients: []ClientGroup{{Count: 1, RTT: 40 * time.Millisecond, RTTKind: ServiceExponential,
			Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 2}}, Retry: Retry{Kind: RetryImmediate}}}}
	var log traceLog
	mustRun(t, cfg, Options{Trace: &log})
	// Whichever request reaches the limiter second is refused and loops.
	loop := func(lane LaneKind) []time.Duration {
		tries := map[int64][]time.Duration{}
		for _, r := range log.recs {
			if r.Lane == lane && r.Event != TraceSuccess {
				tries[r.Request] = append(tries[r.Request], r.At)
			}
		}
		if len(tries[1]) > len(tries[2]) {
			return tries[1]
		}
		return tries[2]
	}
	a, b := loop(LaneFixedWindow), loop(LaneSlidingLog)
	if n := len(a); n < 500-64 || n > 500+64 {
		t.Errorf("%d tries in 20s, want 500 ± 64", n)
	}
	if !slices.Equal(a, b) {
		t.Error("two lanes drew different round trips for the same attempts")
	}
	gaps := map[time.Duration]bool{}
	for i := 1; i < len(a); i++ {
		gaps[a[i]-a[i-1]] = true
	}
	if len(gaps) < len(a)/2 {
		t.Errorf("%d distinct gaps among %d tries: the trips are not drawn", len(gaps), len(a))
	}
}

// Two requests at 0 on two servers of 100ms, then two at 1s after the
// service doubles: a group with service factor 2.5 takes 250ms, then 500ms;
// the other 100ms, then 200ms. The time each request is served is its
// latency, since nothing waits.
func TestServiceFactorScalesTheGroupsServiceTime(t *testing.T) {
	twice := []Arrival{{Kind: ArrivalBurst, Count: 1}, {Kind: ArrivalBurst, Count: 1, At: time.Second}}
	cfg := Config{Duration: 2 * time.Second, Lanes: []LaneKind{LaneTokenBucket},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 100, Window: time.Second}}},
		Clients: []ClientGroup{{Name: "slow", Count: 1, ServiceFactor: 2.5, Arrivals: twice},
			{Name: "plain", Count: 1, Arrivals: twice}},
		Backend: &Backend{Capacity: 2, Service: Service{Mean: 100 * time.Millisecond},
			Changes: []BackendChange{{At: time.Second, Capacity: 2, Service: Service{Mean: 200 * time.Millisecond}}}}}
	var log traceLog
	l := mustRun(t, cfg, Options{Trace: &log}).Lanes[0]
	want := map[string][]time.Duration{
		"slow":  {250 * time.Millisecond, 500 * time.Millisecond},
		"plain": {100 * time.Millisecond, 200 * time.Millisecond},
	}
	got := map[string][]time.Duration{}
	for _, r := range log.recs {
		if r.Event == TraceSuccess {
			got[r.Class] = append(got[r.Class], r.Latency)
		}
	}
	for class, w := range want {
		if !slices.Equal(got[class], w) {
			t.Errorf("%s served in %v, want %v", class, got[class], w)
		}
	}
	if l.Backend.Served != 4 {
		t.Errorf("served %d, want 4", l.Backend.Served)
	}
}
