package sim

import (
	"context"
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Concurrency limits and load shedders take no fast path: with every
// setting of the switches a world with them gives the general path's
// figures and trace, with a backend and without (where the kernel would
// otherwise run).
func TestFastPathsWithConcurrencyAndShedding(t *testing.T) {
	var worlds []Config
	for seed := range uint64(6) {
		c := concTraffic{N: uint8(seed), Clients: uint8(3 + seed), Rate: uint8(40 * seed), Service: 90, Queue: 2, Cap: 3, Leaky: seed%2 == 0, Seed: seed}.config()
		c.Lanes = append(c.Lanes, LaneGCRA, LaneFixedWindow)
		worlds = append(worlds, c)
		bare := c
		bare.Backend = nil
		bare.Clients = []ClientGroup{{Name: "c", Count: 50, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 3}, {Kind: ArrivalPoisson, Rate: Rate{Count: 50, Per: time.Second}}}}}
		worlds = append(worlds, bare)
		worlds = append(worlds, shedTraffic{Crit: [4]uint8{0, 1, 2, 3}, Rate: [4]uint8{uint8(seed * 9), 30, 40, 50}, Cap: 3, Queue: 4,
			Serv: 50, Reserve: uint8(seed), Thresh: 5, Step: 2, Retry: seed%2 == 1, Grid: seed%3 == 0, Seed: seed}.config())
	}
	for i, c := range worlds {
		out, err := checkFastPaths(c, diffSets())
		if err != nil {
			t.Errorf("world %d: %v", i, err)
		} else if !out.valid {
			t.Errorf("world %d does not validate: it tests nothing", i)
		}
	}
}

// The concurrency-limiter lanes (AIMD, Vegas, Gradient2) take the kernel
// when no backend stands behind them (fast_conc.go), and stay off it with
// partitions or a limit scoped to an endpoint: with every setting of the
// switches these worlds give the general path's figures, trace and columns,
// with one key and many, one cost and several, and a backend for contrast.
func TestFastPathsWithAdaptiveConcurrency(t *testing.T) {
	inKernel := 0
	flips := map[string]int{}
	for seed := range uint64(12) {
		c := adaptiveWorld(seed)
		out, err := checkFastPaths(c, diffSets())
		switch {
		case err != nil:
			t.Errorf("world %d: %v\nworld: %+v", seed, err, c)
		case !out.valid:
			t.Errorf("world %d does not validate: it tests nothing", seed)
		}
		inKernel += out.paths.conc
		countFlips(flips, out)
	}
	requireFlipped(t, flips, "conc_kernel_off")
	if inKernel < 12 {
		t.Errorf("%d concurrency-limiter lanes in the kernel, want at least 12: the worlds no longer reach it", inKernel)
	}
}

// adaptiveWorld is a world of the concurrency-limiter lanes beside a token
// bucket, from seed: Poisson clients and a burst over one key or one per
// client, costs of 1 or 1 to 3, AIMD starting low (its limit grows with every
// completion), Vegas and Gradient2 at 1 or 2, and by seed partitions, a limit scoped to an endpoint, or a
// backend.
func adaptiveWorld(seed uint64) Config {
	key := []KeyKind{KeyGlobal, KeyUser}[seed%2]
	c := Config{Name: "adaptive", Seed: seed, Duration: 2 * time.Second, Bucket: []time.Duration{0, 300 * time.Millisecond}[seed/2%2],
		Lanes:  []LaneKind{LaneAIMD, LaneVegas, LaneGradient2, LaneTokenBucket},
		Limits: []Limit{{Key: key, Policy: algorithms.Policy{Limit: 20 + int64(seed), Window: 500 * time.Millisecond}}},
		AIMD:   AIMDSettings{Initial: 1 + float64(seed%3), Max: 4 + float64(seed)},
		// Vegas and Gradient2 low enough that one completion in flight is
		// half their limit: one with a latency would move it.
		Vegas:     VegasSettings{Initial: 1 + float64(seed%2)},
		Gradient2: Gradient2Settings{Initial: 1 + float64(seed%2), Min: 1},
		Clients: []ClientGroup{
			{Name: "steady", Count: 3 + int(seed), Cost: 1, Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 30, Per: time.Second}}}},
			{Name: "burst", Count: 1, Cost: 1 + int64(seed%3), Arrivals: []Arrival{{Kind: ArrivalBurst, At: time.Second, Count: 40}}},
		}}
	switch seed % 6 {
	case 3:
		c.ConcurrencyPartitions = []ConcurrencyPartition{{Name: "steady", Classes: []string{"steady"}, Share: 0.5}}
	case 4:
		c.Clients[1].Identity.Endpoint = "/login"
		c.Limits[0].Endpoint = "/login"
	case 5:
		c.Backend = &Backend{Capacity: 2, QueueSize: 3, Service: Service{Mean: 20 * time.Millisecond}}
	}
	return c
}

// refusingLimiter is a concurrency limiter that refuses every third request
// whatever is in flight, which no limiter of the algorithms package does in
// the kernel's world: it reaches the kernel's shed (kernelShed).
type refusingLimiter struct{ asked, inFlight int }

func (f *refusingLimiter) Acquire(time.Duration) bool {
	if f.asked++; f.asked%3 == 0 {
		return false
	}
	f.inFlight++
	return true
}
func (f *refusingLimiter) Release(_, _ time.Duration) { f.inFlight-- }
func (f *refusingLimiter) Limit() float64             { return float64(f.asked % 7) }
func (f *refusingLimiter) InFlight() int              { return f.inFlight }

// A request the concurrency limiter sheds in the kernel is counted as the
// general loop counts it (enter, shed): the figures and the verdict hash
// the same with the kernel and without.
func TestKernelShedIsTheGeneralPath(t *testing.T) {
	for seed := range uint64(3) {
		cfg := adaptiveWorld(seed)
		cfg.Lanes = []LaneKind{LaneAIMD}
		run := func(off bool) Result {
			concKernelOff = off
			defer func() { concKernelOff = false }()
			s, err := New(cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			l := s.lanes[0]
			if l.kern.fits == off {
				t.Fatalf("world %d: lane in the kernel %v with conc_kernel_off %v", seed, l.kern.fits, off)
			}
			fake := &refusingLimiter{}
			l.conc, l.kern.inFlight, l.adapt = fake, fake, newAdaptiveSampler(l.cfg.Bucket, fake)
			res, err := s.RunToEnd(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		got, want := run(false), run(true)
		if want.Lanes[0].Shed == 0 {
			t.Fatalf("world %d: nothing shed: the test reaches no shed", seed)
		}
		if d := valueDiff("Result", reflect.ValueOf(got), reflect.ValueOf(want)); d != "" {
			t.Errorf("world %d, the kernel against the general loop: %s", seed, d)
		}
	}
}
