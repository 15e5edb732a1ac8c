package sim

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// throttleServers are the server-side limits throttleWorld puts behind the
// client throttle: the token bucket (the default), an Admitter that answers
// refusals alone (GCRA), one that does not (the sliding log), and the queues
// (the leaky bucket, nginx), whose delayed requests are answered at their
// release.
var throttleServers = []LaneKind{LaneDefault, LaneGCRA, LaneSlidingLog, LaneLeakyBucket, LaneNginx}

// throttleWorld is a world of the client-throttling lane beside a token
// bucket, from seed: clients over the limit, so that throttles drop, over one
// key or one per client, Poisson (a superposed group among them) and a burst,
// costs of 1 or 1 to 3, a period of 24 buckets short enough to age out
// during the run, K of 1 to 3, each of throttleServers behind it; and by
// seed a backend or a fleet, which keep it off the kernel, for contrast.
func throttleWorld(seed uint64) Config {
	key := []KeyKind{KeyGlobal, KeyUser}[seed%2]
	w := []time.Duration{100 * time.Millisecond, 250 * time.Millisecond, time.Second}[seed%3]
	server := throttleServers[seed%uint64(len(throttleServers))]
	limit := algorithms.Policy{Limit: 10 + int64(seed%4), Window: w, Burst: 2 + int64(seed%3)}
	c := Config{Name: "throttle", Seed: seed, Duration: 3 * time.Second, Bucket: []time.Duration{0, 300 * time.Millisecond}[seed/2%2],
		Lanes:    []LaneKind{LaneClientThrottle, LaneTokenBucket},
		Limits:   []Limit{{Key: key, NoHeaders: seed%4 == 1, Policy: limit}},
		Throttle: ThrottleSettings{K: float64(1 + seed%3), Period: 24 * (w / 2), Server: server},
		Clients: []ClientGroup{
			{Name: "steady", Count: 2 + int(seed%4), Cost: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 40, Per: time.Second}}}},
			{Name: "crowd", Count: 40, Cost: 1 + int64(seed%2), Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 2, Per: time.Second}}}},
			{Name: "burst", Count: 1, Cost: 1 + int64(seed%3), Arrivals: []Arrival{{Kind: ArrivalBurst, At: time.Second, Count: 30}}},
		}}
	if server == LaneNginx {
		c.Limits[0].Policy = algorithms.Policy{Limit: 20, Window: time.Second, Burst: 3} // a rate nginx can say
	}
	switch seed % 7 {
	case 5:
		c.Backend = &Backend{Capacity: 2, QueueSize: 3, Service: Service{Mean: 20 * time.Millisecond}}
	case 6:
		c.Topology = &Topology{Replicas: []ReplicaStep{{Count: 2}}}
	}
	return c
}

// The client-throttling lane takes the kernel (fast_throttle.go) with no
// backend and no fleet: with every setting of the switches these worlds give
// the general path's figures, trace and columns, with every server of
// throttleServers, and the throttles drop and, behind a queue, delay.
func TestFastPathsWithClientThrottle(t *testing.T) {
	inKernel, behindQueue := 0, 0
	flips := map[string]int{}
	for seed := range uint64(14) {
		c := throttleWorld(seed)
		out, err := checkFastPaths(c, diffSets())
		switch {
		case err != nil:
			t.Errorf("world %d: %v\nworld: %+v", seed, err, c)
			continue
		case !out.valid:
			t.Errorf("world %d does not validate: it tests nothing", seed)
			continue
		}
		inKernel += out.paths.throttle
		behindQueue += out.paths.throttleDelays
		countFlips(flips, out)
		res := runDiff(c, diffGeneral(), false).res.Lanes[0]
		if res.Dropped == 0 || res.Refused == 0 {
			t.Errorf("world %d: dropped %d, refused %d: want both, to test both", seed, res.Dropped, res.Refused)
		}
	}
	requireFlipped(t, flips, "throttle_kernel_off", "delay_kernel_off")
	t.Logf("%d client-throttling lanes in the kernel, %d behind a queue", inKernel, behindQueue)
	if inKernel < 8 || behindQueue < 3 {
		t.Errorf("%d client-throttling lanes in the kernel, %d behind a queue: want at least 8 and 3: the worlds no longer reach them", inKernel, behindQueue)
	}
}

// TestKernelThrottleTiesWithReleases checks that the kernel tells a
// client's throttle of a delayed request's answer, at its release, in the
// general loop's order against an arrival at the same instant (the
// arrival's send decision reads the throttle): the client-throttling lane
// behind a leaky bucket, in the worlds of TestKernelReleasesTieWithArrivals,
// run to stops and in lane steps with small budgets, on the kernel and off it.
func TestKernelThrottleTiesWithReleases(t *testing.T) {
	for i, cfg := range []Config{tieWorld(LaneClientThrottle), crowdTieWorld(LaneClientThrottle)} {
		cfg.Throttle = ThrottleSettings{K: 1, Period: 24 * 50 * time.Millisecond, Server: LaneLeakyBucket}
		first, second := tieOrders(t, cfg)
		if first == 0 || second == 0 {
			t.Errorf("world %d: %d ties with the release first, %d with the arrival first: want both, to test both", i, first, second)
		}
		build := func() *Simulation {
			s, err := New(cfg, Options{})
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
		fast := build()
		if l := fast.lanes[0]; !l.kern.fits || l.kern.gate == nil || !l.delaysInKernel() {
			t.Fatalf("world %d: the throttle and its delays are not in the kernel", i)
		}
		throttleKernelOff = true
		slow := build()
		throttleKernelOff = false
		if slow.lanes[0].kern.fits {
			t.Fatalf("world %d: throttle_kernel_off leaves the lane in the kernel", i)
		}
		stops := []time.Duration{99 * time.Millisecond, 100 * time.Millisecond, 730 * time.Millisecond}
		for at := 731 * time.Millisecond; at < cfg.Duration+time.Second; at += 37 * time.Millisecond {
			stops = append(stops, at)
		}
		for j, at := range stops {
			st := kernelStep{at: at, budget: 3 * (j % 2)}
			fastSaw, fastResults := runStep(fast, st)
			slowSaw, slowResults := runStep(slow, st)
			if fastSaw != slowSaw {
				t.Fatalf("world %d to %v: on the kernel, then off:\n%s", i, at, firstDifference(fastSaw, slowSaw))
			}
			if !reflect.DeepEqual(fastResults, slowResults) {
				t.Fatalf("world %d to %v: results differ on the kernel, then off:\n%s", i, at,
					firstDifference(fmt.Sprintf("%+v", fastResults), fmt.Sprintf("%+v", slowResults)))
			}
		}
		if r := fast.Result().Lanes[0]; r.Delayed == 0 || r.Refused == 0 || r.Dropped == 0 {
			t.Errorf("world %d: delayed %d, refused %d, dropped %d: want each, to test each", i, r.Delayed, r.Refused, r.Dropped)
		}
	}
}
