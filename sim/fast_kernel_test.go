package sim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// withoutKernel calls f with every lane it builds on the general loop.
func withoutKernel(f func()) {
	kernelOff = true
	defer func() { kernelOff = false }()
	f()
}

// kernelConfig is a random world, the fuzz target's, made to fit the kernel
// when fit is true: one limit, no backend, no topology, no client that
// retries; a shadow limit, a pacing client and rule pushes may still turn the
// quick path (and so the kernel) off and on during the run.
func kernelConfig(rnd *rand.Rand, fit bool) Config {
	data := make([]byte, 96)
	for i := range data {
		data[i] = byte(rnd.Uint32())
	}
	cfg := fuzzConfig(&fuzzBytes{data: data})
	if !fit {
		return cfg
	}
	cfg.Limits = cfg.Limits[:1]
	cfg.Overrides, cfg.Backend, cfg.Topology = nil, nil, nil
	cfg.Lanes = []LaneKind{LaneTokenBucket, LaneGCRA, LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneLeakyBucket}[:1+rnd.IntN(6)]
	cfg.Variants = nil
	for g := range cfg.Clients {
		cfg.Clients[g].Retry = Retry{MaxAttempts: []int{0, 0, 1}[rnd.IntN(3)]}
		if cfg.Clients[g].Retry.MaxAttempts == 1 {
			cfg.Clients[g].Retry.Kind = RetryFixed
			cfg.Clients[g].Retry.Delay = time.Millisecond
		}
		switch rnd.IntN(4) {
		case 0, 1:
			cfg.Clients[g].Count = 2 + rnd.IntN(40)
			cfg.Clients[g].Arrivals = cfg.Clients[g].Arrivals[:1]
			cfg.Clients[g].Arrivals[0].Kind = ArrivalPoisson // a superposed group
		case 2:
			cfg.Clients[g].Count = 2 + rnd.IntN(40)
			cfg.Clients[g].Arrivals = []Arrival{{Kind: ArrivalBurst, At: time.Duration(rnd.Int64N(int64(cfg.Duration))), Count: 1}} // one-shot
		}
	}
	var rules []RuleChange
	for _, ch := range cfg.Rules {
		if ch.Limit == 0 {
			rules = append(rules, ch)
		}
	}
	cfg.Rules = rules
	return cfg
}

// kernelStep is one thing a test does to a simulation: run to a time, with a
// budget, or change it as a live view does.
type kernelStep struct {
	at     time.Duration
	budget int                     // for lane.runUntil; 0 runs Simulation.RunUntil
	change func(*Simulation) error // nil, or a change made before running
}

// kernelScript is a random sequence of steps over cfg's run.
func kernelScript(rnd *rand.Rand, cfg Config) []kernelStep {
	end := cfg.Duration + cfg.Drain
	if cfg.Drain == 0 {
		end += cfg.Duration
	}
	var steps []kernelStep
	at := time.Duration(0)
	for at < end {
		at += time.Duration(rnd.Int64N(int64(end/6) + 1))
		st := kernelStep{at: at}
		switch rnd.IntN(8) {
		case 0:
			st.budget = 1 + rnd.IntN(50)
		case 1:
			client, n, spread := rnd.IntN(3), 1+rnd.IntN(30), time.Duration(rnd.Int64N(int64(end/4)+1))
			st.change = func(s *Simulation) error { return s.Inject(client, n, spread) }
		case 2:
			group, rate := rnd.IntN(len(cfg.Clients)), Rate{Count: 1 + rnd.Int64N(40), Per: time.Second}
			st.change = func(s *Simulation) error { return s.ChangeRate(group, rate) }
		case 3:
			ch := RuleChange{At: -1, Shadow: rnd.IntN(3) == 0}
			if rnd.IntN(2) == 0 {
				ch.Policy = algorithms.Policy{Limit: 1 + rnd.Int64N(30), Window: time.Duration(1+rnd.Int64N(1000)) * time.Millisecond, Burst: rnd.Int64N(20)}
			}
			delay := time.Duration(rnd.Int64N(int64(end/5) + 1))
			st.change = func(s *Simulation) error { ch.At = s.Now() + delay; return s.ChangeRule(ch) }
		}
		steps = append(steps, st)
	}
	return steps
}

// runStep does st to s and tells what it saw: the error, the events and the
// snapshots, and the results (after a lane step with a budget, then after
// catching up to st.at).
func runStep(s *Simulation, st kernelStep) (string, []Result) {
	var err error
	if st.change != nil {
		err = st.change(s)
	}
	saw, results := "", []Result(nil)
	if err == nil && st.budget > 0 {
		// Each lane steps on its own, then all catch up to st.at, so that the
		// Simulation's clock stays that of its lanes for the next change.
		var done []int
		for _, l := range s.lanes {
			done = append(done, l.runUntil(st.at, st.budget))
		}
		saw = fmt.Sprintf("processed %v, snapshot %+v; ", done, s.Snapshot())
		results = append(results, s.Result())
	}
	if err == nil {
		err = s.RunUntil(st.at)
	}
	saw += fmt.Sprintf("err %v, events %d, snapshot %+v", err, s.Events(), s.Snapshot())
	return saw, append(results, s.Result())
}

// TestKernelIsTheGeneralLoop runs random worlds, most of them fit for the
// kernel, step by step (stops at random times, lane steps with small budgets,
// injected bursts, rate changes, rule pushes) with and without the kernel:
// every step must see the same errors, events, snapshots and results.
func TestKernelIsTheGeneralLoop(t *testing.T) {
	ran := 0
	for seed := range uint64(40) {
		rnd := rand.New(rand.NewPCG(seed, 14))
		cfg := kernelConfig(rnd, seed%4 != 0)
		steps := kernelScript(rnd, cfg)
		build := func() *Simulation {
			s, err := New(cfg, Options{})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			return s
		}
		fast, slow := build(), (*Simulation)(nil)
		withoutKernel(func() { slow = build() })
		for i, st := range steps {
			fastSaw, fastResult := runStep(fast, st)
			slowSaw, slowResult := runStep(slow, st)
			if fastSaw != slowSaw {
				t.Fatalf("seed %d, step %d (to %v): with the kernel, then without:\n%s", seed, i, st.at, firstDifference(fastSaw, slowSaw))
			}
			if !reflect.DeepEqual(fastResult, slowResult) {
				t.Fatalf("seed %d, step %d (to %v): results differ with the kernel, then without:\n%s", seed, i, st.at,
					firstDifference(fmt.Sprintf("%+v", fastResult), fmt.Sprintf("%+v", slowResult)))
			}
		}
		for _, l := range fast.lanes {
			if l.kern.fits {
				ran++
			}
		}
	}
	if ran < 30 {
		t.Errorf("only %d lanes fit the kernel: the test compares too little", ran)
	}
}

// TestKernelRunsLikeTheGeneralLoop runs random fitting worlds to the end
// through Run (lanes built as they start, in parallel) and with an event
// budget, with and without the kernel.
func TestKernelRunsLikeTheGeneralLoop(t *testing.T) {
	for seed := range uint64(30) {
		rnd := rand.New(rand.NewPCG(seed, 41))
		cfg := kernelConfig(rnd, true)
		opt := Options{}
		if seed%3 == 0 {
			cfg.Lanes = cfg.Lanes[:1] // one lane: where the budget stops it does not depend on scheduling
			opt.MaxEvents = 1 + rnd.Int64N(300)
		}
		run := func() (Result, error) { return Run(context.Background(), cfg, opt) }
		fast, fastErr := run()
		var slow Result
		var slowErr error
		withoutKernel(func() { slow, slowErr = run() })
		var budget *BudgetError
		if fmt.Sprint(fastErr) != fmt.Sprint(slowErr) || (fastErr != nil && !errors.As(fastErr, &budget)) {
			t.Fatalf("seed %d: error %v with the kernel, %v without", seed, fastErr, slowErr)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("seed %d: results differ with the kernel, then without:\n%s", seed, firstDifference(fmt.Sprintf("%+v", fast), fmt.Sprintf("%+v", slow)))
		}
	}
}

// TestKernelTakesTheFittingLanes checks which lanes the kernel runs.
func TestKernelTakesTheFittingLanes(t *testing.T) {
	fits := poisson100(time.Second)
	cases := map[string]struct {
		change func(*Config)
		want   bool
	}{
		"the 100-client model":        {func(*Config) {}, true},
		"a give-up after one attempt": {func(c *Config) { c.Clients[0].Retry = Retry{Kind: RetryImmediate, MaxAttempts: 1} }, true},
		"retries":                     {func(c *Config) { c.Clients[0].Retry = Retry{Kind: RetryImmediate, MaxAttempts: 2} }, false},
		"a backend":                   {func(c *Config) { c.Backend = &Backend{Capacity: 1, Service: Service{Mean: time.Millisecond}} }, false},
		"a local fleet":               {func(c *Config) { c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}}} }, true},
		"a synced fleet": {func(c *Config) {
			c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}}}
			c.Limits[0].State, c.Limits[0].SyncInterval = StateSynced, time.Millisecond
		}, true},
		"a shared store": {func(c *Config) {
			c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}}}
			c.Limits[0].State = StateShared
		}, true},
		"a racy shared store": {func(c *Config) {
			c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}}, Store: Store{Racy: true}}
			c.Limits[0].State = StateShared
		}, false},
		"a shared store that fails": {func(c *Config) {
			c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}}, Store: Store{Outages: []Outage{{From: time.Second, To: 2 * time.Second}}}}
			c.Limits[0].State = StateShared
		}, false},
		"a shared store read by pacing clients": {func(c *Config) {
			c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}}}
			c.Limits[0].State = StateShared
			c.Clients[0].Pace = true
		}, false},
		"a health-checked fleet": {func(c *Config) {
			c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}}, Health: &HealthCheck{Interval: time.Second}}
		}, false},
		"a concurrency limiter": {func(c *Config) { c.Lanes = []LaneKind{LaneAIMD} }, true},
		"a concurrency limiter with a backend": {func(c *Config) {
			c.Lanes, c.Backend = []LaneKind{LaneVegas}, &Backend{Capacity: 1, Service: Service{Mean: time.Millisecond}}
		}, false},
		"a partitioned concurrency limiter": {func(c *Config) {
			c.Lanes = []LaneKind{LaneGradient2}
			c.ConcurrencyPartitions = []ConcurrencyPartition{{Name: "p", Classes: []string{c.Clients[0].Name}, Share: 0.5}}
		}, false},
		"a client throttle": {func(c *Config) { c.Lanes = []LaneKind{LaneClientThrottle} }, true},
		"a client throttle behind a leaky bucket": {func(c *Config) {
			c.Lanes, c.Throttle.Server = []LaneKind{LaneClientThrottle}, LaneLeakyBucket
		}, true},
		"a client throttle with a backend": {func(c *Config) {
			c.Lanes, c.Backend = []LaneKind{LaneClientThrottle}, &Backend{Capacity: 1, Service: Service{Mean: time.Millisecond}}
		}, false},
		"a client throttle in a fleet": {func(c *Config) {
			c.Lanes, c.Topology = []LaneKind{LaneClientThrottle}, &Topology{Replicas: []ReplicaStep{{Count: 2}}}
		}, false},
	}
	for name, tc := range cases {
		cfg := fits
		cfg.Clients = append([]ClientGroup(nil), fits.Clients...)
		cfg.Limits = append([]Limit(nil), fits.Limits...)
		tc.change(&cfg)
		s, err := New(cfg, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := s.lanes[0].kern.fits; got != tc.want {
			t.Errorf("%s: the lane fits the kernel: %v, want %v", name, got, tc.want)
		}
	}
}

// firstDifference shows where a and b first differ, with some context.
func firstDifference(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	from := max(0, i-300)
	return a[from:min(len(a), i+200)] + "\n" + b[from:min(len(b), i+200)]
}

// neverAdmits is a leaky bucket that calls itself an Admitter but admits
// nothing at once, so that every decision goes to Decide, which may delay: an
// Admitter sim does not know (no direct path) whose requests may be delayed.
type neverAdmits struct{ lb *algorithms.LeakyBucket }

// neverState is a leaky bucket's state under a type of its own, so that sim
// knows no direct path for it.
type neverState struct{ s algorithms.LeakyBucketState }

func (n neverAdmits) Decide(s *neverState, now time.Duration, cost int64) algorithms.Decision {
	return n.lb.Decide(&s.s, now, cost)
}

func (n neverAdmits) Idle(s *neverState, now time.Duration) bool { return n.lb.Idle(&s.s, now) }

func (neverAdmits) Admit(*neverState, time.Duration, int64) bool { return false }

// TestKernelHandsDelaysToTheGeneralLoop runs a lane whose one limit is
// neverAdmits with and without the kernel: the kernel must hand each delayed
// request to the general loop, and the results must be equal. In the second
// world the queue drains fast and nothing else is pending: each release comes
// before the superposed group's next arrival, which must wait for it.
func TestKernelHandsDelaysToTheGeneralLoop(t *testing.T) {
	slowLeak := poisson100(3 * time.Second)
	slowLeak.Limits[0].Policy = algorithms.Policy{Limit: 800, Window: time.Second, Burst: 20}
	slowLeak.Clients = append(slowLeak.Clients, ClientGroup{Name: "steady", Count: 3,
		Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 50, Per: time.Second}}}})
	fastLeak := poisson100(3 * time.Second)
	fastLeak.Limits[0].Policy = algorithms.Policy{Limit: 1_000_000, Window: time.Second, Burst: 20}
	for i, cfg := range []Config{slowLeak, fastLeak} {
		cfg.Lanes = []LaneKind{LaneLeakyBucket}
		kernelHandsDelays(t, cfg, i == 0)
	}
}

// kernelHandsDelays is TestKernelHandsDelaysToTheGeneralLoop in world cfg;
// refusals says the world must refuse some requests too.
func kernelHandsDelays(t *testing.T, cfg Config, refusals bool) {
	t.Helper()
	build := func() *Simulation {
		s, err := New(cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		l := s.lanes[0]
		lb, err := algorithms.NewLeakyBucket(l.policies[0])
		if err != nil {
			t.Fatal(err)
		}
		l.chain[0] = newDense[neverState](neverAdmits{lb}, l.pop.keys[0].len())
		l.setQuickPath()
		return s
	}
	fast, slow := build(), (*Simulation)(nil)
	withoutKernel(func() { slow = build() })
	if !fast.lanes[0].kern.fits || fast.lanes[0].quick == nil {
		t.Fatal("the lane does not fit the kernel")
	}
	for i, at := range []time.Duration{time.Millisecond, 700 * time.Millisecond, 2 * time.Second, 6 * time.Second} {
		fastSaw, fastResults := runStep(fast, kernelStep{at: at, budget: 40 * (i % 2)})
		slowSaw, slowResults := runStep(slow, kernelStep{at: at, budget: 40 * (i % 2)})
		if fastSaw != slowSaw {
			t.Fatalf("to %v: with the kernel, then without:\n%s", at, firstDifference(fastSaw, slowSaw))
		}
		if !reflect.DeepEqual(fastResults, slowResults) {
			t.Fatalf("to %v: results differ with the kernel, then without:\n%s", at,
				firstDifference(fmt.Sprintf("%+v", fastResults), fmt.Sprintf("%+v", slowResults)))
		}
	}
	if r := fast.Result().Lanes[0]; r.Delayed == 0 || r.Refused == 0 && refusals {
		t.Errorf("delayed %d, refused %d: want both, to test both", r.Delayed, r.Refused)
	}
}
