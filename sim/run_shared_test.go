package sim

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestSharedRequests runs random worlds in which lanes share requests (a
// leader and its followers, run_shared.go) with and without sharing: every lane's
// result must be the same, and the events counted.
func TestSharedRequests(t *testing.T) {
	sharedAlways = true
	defer func() { sharedAlways = false }()
	shared := 0
	for seed := range uint64(30) {
		rnd := rand.New(rand.NewPCG(seed, 7))
		cfg := kernelConfig(rnd, true)
		cfg.Rules = nil
		cfg.Duration, cfg.Drain = min(cfg.Duration, time.Second), 0
		for g := range cfg.Clients {
			cfg.Clients[g].Pace = seed%7 == 0 // a pacing client reading headers keeps lanes off the kernel
		}
		cfg.Lanes = []LaneKind{LaneFixedWindow, LaneTokenBucket, LaneSlidingLog, LaneGCRA, LaneLeakyBucket, LaneTokenBucket}
		cfg.Variants = make([]Variant, len(cfg.Lanes))
		cfg.Variants[5].Name = "bucket-b"
		cfg.Overrides = []LaneOverride{{Name: "bucket-b", Policy: algorithms.Policy{Limit: 2 + rnd.Int64N(20), Window: time.Second}}} // room for a request of cost 2
		if seed%5 == 0 {
			cfg.Clients[0].Retry = Retry{Kind: RetryFixed, Delay: 10 * time.Millisecond, MaxAttempts: 3} // then no lane shares
		}
		pop, err := newPopulation(context.Background(), cfg.withDefaults().Clients, cfg.withDefaults().Limits)
		if err != nil {
			t.Fatal(err)
		}
		if lanes := sharingLanes(&cfg, Options{}, pop); lanes != nil {
			s, err := New(cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			follow := 0
			for _, i := range lanes {
				if s.lanes[i].canFollow() {
					follow++
				}
			}
			if follow == len(lanes) {
				shared++
			}
		}
		var events, withoutEvents int64
		with := mustRun(t, cfg, Options{Progress: func(p Progress) { events = p.Events }})
		var without Result
		sharedOff = true
		without = mustRun(t, cfg, Options{Progress: func(p Progress) { withoutEvents = p.Events }})
		sharedOff = false
		if !reflect.DeepEqual(with, without) {
			t.Fatalf("seed %d: results differ with lanes sharing requests, then without:\n%s", seed,
				firstDifference(fmt.Sprintf("%+v", with), fmt.Sprintf("%+v", without)))
		}
		if events != withoutEvents {
			t.Errorf("seed %d: %d events with lanes sharing requests, %d without", seed, events, withoutEvents)
		}
	}
	if shared < 15 {
		t.Errorf("lanes shared requests in %d worlds of 30: the test compares too little", shared)
	}
}

// TestSharedRequestsUnderABudget runs lanes that share requests under event
// budgets from ample to far too small: the result, or the budget's error, is
// that of the lanes run without sharing, and no run processes more than its budget.
func TestSharedRequestsUnderABudget(t *testing.T) {
	sharedAlways = true
	defer func() { sharedAlways = false }()
	cfg := poisson100(40 * time.Second) // 40,000 arrivals, over two blocks
	cfg.Lanes = []LaneKind{LaneTokenBucket, LaneGCRA, LaneLeakyBucket, LaneFixedWindow, LaneSlidingLog}
	var unlimited int64
	mustRun(t, cfg, Options{Progress: func(p Progress) { unlimited = p.Events }})
	for _, budget := range []int64{unlimited * 2, unlimited, unlimited - 1, unlimited * 3 / 4, unlimited / 5, 1} {
		run := func(off bool) (Result, int64, error) {
			sharedOff = off
			defer func() { sharedOff = false }()
			var events int64
			r, err := Run(context.Background(), cfg, Options{MaxEvents: budget, Progress: func(p Progress) { events = p.Events }})
			return r, events, err
		}
		with, withEvents, withErr := run(false)
		without, _, withoutErr := run(true)
		var be *BudgetError
		if (withErr == nil) != (withoutErr == nil) || withErr != nil && !errors.As(withErr, &be) {
			t.Fatalf("budget %d of %d events: error %v with sharing, %v without", budget, unlimited, withErr, withoutErr)
		}
		if withErr == nil && !reflect.DeepEqual(with, without) {
			t.Fatalf("budget %d: results differ with lanes sharing requests, then without", budget)
		}
		if withErr != nil && (be.Budget != budget || withEvents > budget) {
			t.Errorf("budget %d: stopped at a budget of %d after %d events", budget, be.Budget, withEvents)
		}
	}
}

// TestSharingLanes checks which lanes of a Run share requests.
func TestSharingLanes(t *testing.T) {
	many := []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneTokenBucket, LaneLeakyBucket, LaneGCRA, LaneAIMD, LaneClientThrottle, LaneSlidingWindowCounter}
	cases := map[string]struct {
		change func(*Config, *Options)
		want   []int
	}{
		"eight lanes":     {func(*Config, *Options) {}, []int{0, 1, 2, 4, 7}},
		"a trace":         {func(_ *Config, o *Options) { o.Trace = discardTrace{} }, nil},
		"an event budget": {func(_ *Config, o *Options) { o.MaxEvents = 1e6 }, []int{0, 1, 2, 4, 7}},
		"a rule push":     {func(c *Config, _ *Options) { c.Rules = []RuleChange{{At: time.Second}} }, nil},
		"a backend": {func(c *Config, _ *Options) {
			c.Backend = &Backend{Capacity: 1, Service: Service{Mean: time.Millisecond}}
		}, nil},
		"two lanes on two cores": {func(c *Config, _ *Options) { c.Lanes = []LaneKind{LaneFixedWindow, LaneTokenBucket} }, nil},
		"one lane that could lead": {func(c *Config, _ *Options) {
			c.Lanes = []LaneKind{LaneTokenBucket, LaneAIMD, LaneLeakyBucket, LaneClientThrottle}
		}, nil},
		"two limits": {func(c *Config, _ *Options) { c.Limits = append(c.Limits, c.Limits[0]) }, nil},
	}
	if runtime.GOMAXPROCS(0) < 2 || runtime.GOMAXPROCS(0) >= len(many) {
		t.Skip("the cases are written for 2 to 7 cores")
	}
	for name, tc := range cases {
		cfg, opt := poisson100(time.Second), Options{}
		cfg.Lanes = many
		tc.change(&cfg, &opt)
		pop, err := newPopulation(context.Background(), cfg.Clients, cfg.Limits)
		if err != nil {
			t.Fatal(err)
		}
		if got := sharingLanes(&cfg, opt, pop); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: lanes %v share requests, want %v", name, got, tc.want)
		}
	}
}

// BenchmarkSharedRequests runs the 100-client model through three lanes that
// share requests, and again with sharing off: CPU ns per lane and event.
func BenchmarkSharedRequests(b *testing.B) {
	cfg := poisson100(2000 * time.Second) // 2 M arrivals
	cfg.Lanes = []LaneKind{LaneTokenBucket, LaneGCRA, LaneFixedWindow}
	for _, off := range []bool{false, true} {
		b.Run(map[bool]string{false: "shared", true: "each_lane_its_own"}[off], func(b *testing.B) {
			sharedOff, sharedAlways = off, true
			defer func() { sharedOff, sharedAlways = false, false }()
			b.ReportAllocs()
			cpu, events := cpuTime(), int64(0)
			for range b.N {
				r, err := Run(context.Background(), cfg, Options{})
				if err != nil {
					b.Fatal(err)
				}
				for _, l := range r.Lanes {
					events += l.Attempts
				}
			}
			reportCPU(b, cpu, events)
		})
	}
}

// TestAFollowerTakesTheLeadersCrossCheck follows a token bucket lane's
// requests with another token bucket lane (run_shared.go): the follower keeps no
// log of its own, and its result is that of the same lane run on its own,
// which keeps one (the bucket and the sliding log disagree there).
func TestAFollowerTakesTheLeadersCrossCheck(t *testing.T) {
	cfg := poisson100(3 * time.Second)
	cfg.Lanes = []LaneKind{LaneTokenBucket, LaneTokenBucket}
	cfg.Variants = []Variant{{}, {Name: "bucket-b"}}
	build := func() *Simulation {
		s, err := New(cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	ran, alone := build(), build()
	leader, follower := ran.lanes[0], ran.lanes[1]
	follower.eng.Clear() // it draws no arrivals: the leader's are its
	if !leader.m.peak.SameCheck(follower.m.peak) {
		t.Fatal("two token bucket lanes of one limit: not the same cross-check")
	}
	follower.m.peak.StopChecking()
	block := newRequestBlock()
	leader.kern.record = block
	for {
		block.reset()
		n := leader.runUntil(ran.End(), requestBlockSize)
		follower.follow(block)
		if n < requestBlockSize {
			break
		}
	}
	alone.lanes[1].runUntil(alone.End(), 1<<30)
	got, want := follower.result(), alone.lanes[1].result()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("the follower's result differs from the lane's on its own:\n%s", firstDifference(fmt.Sprintf("%+v", got), fmt.Sprintf("%+v", want)))
	}
	if recent, _ := alone.lanes[1].m.peak.PartedLogs(); want.SlidingLogDisagreement == 0 || recent == 0 {
		t.Fatalf("disagreement %v, %d logs parted on its own: the test shows nothing", want.SlidingLogDisagreement, recent)
	}
	if recent, logs := follower.m.peak.PartedLogs(); recent+logs > 0 {
		t.Errorf("the follower parted %d logs: it keeps one of its own", recent+logs)
	}
}
