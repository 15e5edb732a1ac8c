package sim

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// storeKernelWorlds are worlds whose lanes take the store kernel
// (topo_store_kernel.go), each with something the kernel must get right: a
// constant latency (answers in the store's line), drawn latencies (answers
// overtaking one another), bursts of arrivals at one instant, an autoscaler,
// per-user keys, costs above one, calls overtaking later arrivals, and a
// real store with shards and a capacity (queueing at the store).
func storeKernelWorlds() map[string]Config {
	ms := time.Millisecond
	base := func() Config {
		return Config{
			Seed: 7, Duration: 400 * ms, Drain: 50 * ms, Bucket: 5 * ms,
			Lanes:  []LaneKind{LaneTokenBucket, LaneGCRA, LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter},
			Limits: []Limit{{Key: KeyGlobal, State: StateShared, Policy: algorithms.Policy{Limit: 40, Window: 100 * ms, Burst: 5}}},
			Clients: []ClientGroup{{Name: "c", Count: 20, Identity: Identity{User: "u"},
				Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 1, Per: 10 * ms}}}}},
			Topology: &Topology{Replicas: []ReplicaStep{{Count: 3}}, Store: Store{Latency: Service{Kind: ServiceConstant, Mean: 200 * time.Microsecond}}},
		}
	}
	worlds := map[string]Config{}
	add := func(name string, change func(*Config)) {
		c := base()
		change(&c)
		worlds[name] = c
	}
	add("constant latency", func(*Config) {})
	add("exponential latency", func(c *Config) { c.Topology.Store.Latency.Kind = ServiceExponential })
	add("bursts", func(c *Config) {
		// A burst with nothing else pending near it, answered in the next bucket.
		c.Clients[0].Arrivals[0].Stop = 90 * ms
		c.Clients = append(c.Clients, ClientGroup{Name: "burst", Count: 30,
			Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 1, At: 100*ms - 100*time.Microsecond}}}) // answered in the next bucket
	})
	add("an autoscaler", func(c *Config) {
		c.Topology.Replicas = []ReplicaStep{{Count: 2}, {At: 150 * ms, Count: 5}, {At: 300 * ms, Count: 1}}
		c.Topology.Routing = RoutingRandom
	})
	add("per-user keys", func(c *Config) {
		c.Limits[0].Key = KeyUser
		c.Clients[0].Identity = Identity{}
		c.Limits[0].Policy.Limit, c.Limits[0].Policy.Burst = 3, 1
	})
	add("costs", func(c *Config) {
		c.Clients[0].Cost = 3
		c.Clients = append(c.Clients, ClientGroup{Name: "cheap", Count: 5,
			Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 1, Per: 5 * ms}}}})
	})
	add("calls overtaking arrivals", func(c *Config) {
		c.Topology.Store.Latency = Service{Kind: ServiceExponential, Mean: 2 * ms}
	})
	add("headers kept", func(c *Config) {
		c.Limits[0].Policy.Limit = 10
		c.Clients[0].Arrivals[0].Rate.Per = 2 * ms
	})
	add("steady clients, answers at their next arrival", func(c *Config) {
		// A client every 400us, answered 200us later; another every 200us
		// for the first 100ms, its answer at the instant of its next arrival
		// (a tie the kernel leaves to the general path); from 200ms on a
		// twin of the first, whose answers tie with its.
		c.Clients = []ClientGroup{
			{Name: "steady", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 1, Per: steadyGap}}}},
			{Name: "twin", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 1, Per: steadyGap}, Start: 200 * ms}}},
			{Name: "tied", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 1, Per: 200 * time.Microsecond}, Start: 50 * time.Microsecond, Stop: 100 * ms}}},
		}
	})
	add("a client faster than its answers", func(c *Config) {
		// Its next request is sent before the answer to the last is back:
		// 100us apart, answered 200us later, across the series' buckets, for
		// the first 50ms.
		c.Clients = append(c.Clients, ClientGroup{Name: "fast", Count: 1,
			Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 1, Per: 100 * time.Microsecond}, Start: 30 * time.Microsecond, Stop: 50 * ms}}})
	})
	add("a store a nanosecond away", func(c *Config) {
		// Round trips of 0 (decided at once, in the general path) among
		// round trips of 1ns and more (fused), one key: the cross-check batched.
		c.Topology.Store.Latency = Service{Kind: ServiceExponential, Mean: 2 * time.Nanosecond}
		// For 20us, calls a few nanoseconds apart: answers tied with others
		// whose decision came before.
		dense := func(name string, gap time.Duration) ClientGroup {
			return ClientGroup{Name: name, Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 1, Per: gap},
				Start: 10 * ms, Stop: 10*ms + 20*time.Microsecond}}}
		}
		c.Clients = append(c.Clients, dense("dense", 2), dense("denser", 3))
	})
	add("answers tied with the next arrival, verdicts mixed", func(c *Config) {
		// A client every 3ns for 30us, round trips of 2ns on average (some
		// none: answered at once), a limit that admits about half: an answer
		// often comes back at the instant of its client's next arrival, which
		// the general loop handles first, and answered at once it may fold
		// another verdict into the hash at that instant.
		c.Topology.Store.Latency = Service{Kind: ServiceExponential, Mean: 2 * time.Nanosecond}
		c.Limits[0].Policy = algorithms.Policy{Limit: 150, Window: time.Microsecond, Burst: 5}
		c.Clients = append(c.Clients, ClientGroup{Name: "tied", Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant,
			Rate: Rate{Count: 1, Per: 3}, Start: 10 * ms, Stop: 10*ms + 30*time.Microsecond}}})
	})
	add("a real store: shards and a capacity", func(c *Config) {
		c.Limits[0].Key = KeyUser
		c.Clients[0].Identity = Identity{}
		c.Topology.Store.Shards, c.Topology.Store.Capacity = 3, 3000
	})
	return worlds
}

// steadyGap is the steady client's gap between requests (storeKernelWorlds).
const steadyGap = 400 * time.Microsecond

// TestStoreKernelIsTheGeneralPath holds the store kernel to the general path
// with the differential harness (every switch setting, traced and not), and
// requires the worlds to reach it: lanes in it, and calls whose decision and
// answer it carried out.
func TestStoreKernelIsTheGeneralPath(t *testing.T) {
	sets := diffSets()
	lanes, fused, answered, awaited := 0, int64(0), int64(0), int64(0)
	flips := map[string]int{}
	for name, cfg := range storeKernelWorlds() {
		out, err := checkFastPaths(cfg, sets)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		countFlips(flips, out)
		if !out.valid {
			t.Fatalf("%s: the world does not validate", name)
		}
		n, f, a, w := storeKernelReach(t, cfg)
		if n == 0 || f == 0 {
			t.Errorf("%s: %d lanes on the store kernel, %d calls fused: want some of each", name, n, f)
		}
		lanes, fused, answered, awaited = lanes+n, fused+f, answered+a, awaited+w
	}
	requireFlipped(t, flips, "store_kernel_off", "store_quick_off", "store_line_off", "store_runs_off", "store_decide_first_off", "fleet_kernel_off", "twin_verdict_off", "twin_answer_off", "same_peaks_off")
	t.Logf("%d lanes on the store kernel, %d calls fused, %d handed over and answered in it, %d decided in it and answered later", lanes, fused, answered, awaited)
	if lanes < 40 || fused < 10_000 || answered < 2_000 || awaited < 1_000 {
		t.Errorf("%d lanes on the store kernel, %d calls fused, %d handed over and answered in it and %d decided in it and answered later, want at least 40, 10,000, 2,000 and 1,000",
			lanes, fused, answered, awaited)
	}
}

// storeKernelReach runs cfg to the end as rlsim runs it and counts its lanes
// on the store kernel, the calls they fused, the answers they acted on to
// calls handed to the general path and the calls they decided at once but
// answered later.
func storeKernelReach(t *testing.T, cfg Config) (lanes int, fused, answered, awaited int64) {
	t.Helper()
	s, err := New(cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RunToEnd(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, l := range s.lanes {
		if l.kern.fits && l.kern.store {
			lanes++
			fused += l.kern.fused
			answered += l.kern.answered
			awaited += l.kern.awaited
		}
	}
	return lanes, fused, answered, awaited
}

// TestStoreKernelStopsWhereTheGeneralPathDoes steps worlds with RunUntil (at
// instants that fall between a call's decision and its answer, and 1ns
// before an answer) and lane steps with small event budgets (1 to 7: a
// call's three events cut at each place), with the store kernel and without:
// every step sees the same events, snapshots and results.
func TestStoreKernelStopsWhereTheGeneralPathDoes(t *testing.T) {
	for name, cfg := range storeKernelWorlds() {
		cfg.Lanes = cfg.Lanes[:2]
		latency := cfg.Topology.Store.Latency.Mean
		var steps []kernelStep
		budget := 0
		for at := time.Duration(0); at < cfg.Duration+cfg.Drain; at += 7*time.Millisecond + latency/2 {
			budget = budget%7 + 1
			steps = append(steps, kernelStep{at: at}, kernelStep{at: at + latency - 1, budget: budget})
			// 1ns before, and at, a steady client's answer.
			answer := (at/steadyGap+3)*steadyGap + latency
			steps = append(steps, kernelStep{at: answer - 1}, kernelStep{at: answer})
		}
		run := func(off bool) (out []string) {
			storeKernelOff = off
			defer func() { storeKernelOff = false }()
			s, err := New(cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, st := range steps {
				saw, results := runStep(s, st)
				out = append(out, fmt.Sprintf("%v: %s %s", st.at, saw, asJSON(t, results)))
			}
			return out
		}
		fast, slow := run(false), run(true)
		for i := range fast {
			if fast[i] != slow[i] {
				t.Fatalf("%s, step %d: with the store kernel, then without:\n%s", name, i, firstDifference(fast[i], slow[i]))
			}
		}
	}
}

// asJSON is v as JSON, what rlsim writes of it.
func asJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
