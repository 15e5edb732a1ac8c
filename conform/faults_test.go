package conform

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rlsim/rlsim/sim"
)

// TestRedisKilledMidRun kills the Redis a lane talks to after a third of its
// attempts and starts it again twenty attempts later: those twenty are store
// errors decided by the limit's fail mode, every attempt keeps its answer, and
// the attempts after the restart are Redis's again.
func TestRedisKilledMidRun(t *testing.T) {
	needRedis(t)
	for _, mode := range []sim.FailMode{sim.FailOpen, sim.FailClosed, sim.FailLocal} {
		t.Run(mode.String(), func(t *testing.T) {
			addr, stop, err := startRedis(0)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { stop() }()
			_, portText, _ := net.SplitHostPort(addr)
			port, _ := strconv.Atoi(portText)
			cfg := loadConfig(t, "testdata/mixed.yaml")
			traffic, err := Traffic(context.Background(), *cfg, []sim.LaneKind{sim.LaneGCRA}, 0)
			if err != nil {
				t.Fatal(err)
			}
			traffic[0].OnStoreError = mode
			traffic[0].Fallback = traffic[0].Policy
			n := len(traffic[0].Attempts)
			killAt, restartAt := n/3, n/3+20
			progress := func(_ sim.LaneKind, done int) {
				switch done {
				case killAt:
					stop()
				case restartAt:
					if _, stop, err = startRedis(port); err != nil {
						t.Errorf("restarting redis-server on %d: %v", port, err)
					}
				}
			}
			checks, err := Check(context.Background(), &redis.Options{Addr: addr}, traffic, CheckOptions{
				Replay: Replay{Clock: ClockScheduled, Scale: 200, Prefix: prefix(t)}, Progress: progress, Shown: 1,
			})
			if err != nil {
				t.Fatal(err)
			}
			c := checks[0]
			if c.StoreErrors != restartAt-killAt || c.Attempts != n ||
				c.Agreed+c.DifferedWithin+c.Differed+c.RetryAfterDiffered+c.StoreErrors != n {
				t.Errorf("%d attempts, %+v: want %d store errors and every attempt answered", n, c.Tally, restartAt-killAt)
			}
			if c.RealAdmitted == 0 || c.Unexplained != 0 {
				t.Errorf("after the restart: %d admitted by redis, %d unexplained; want some, none", c.RealAdmitted, c.Unexplained)
			}
			switch mode {
			case sim.FailOpen:
				if c.FailAdmitted != c.StoreErrors {
					t.Errorf("fail open admitted %d of %d", c.FailAdmitted, c.StoreErrors)
				}
			case sim.FailClosed:
				if c.FailAdmitted != 0 {
					t.Errorf("fail closed admitted %d", c.FailAdmitted)
				}
			case sim.FailLocal:
				if c.FailAdmitted == 0 || c.FailAdmitted == c.StoreErrors {
					t.Errorf("the local fallback admitted %d of %d: want some, not all (the traffic is over the limit)", c.FailAdmitted, c.StoreErrors)
				}
			}
			if len(c.Diffs) != 1 || c.Diffs[0].Answer.Err == nil {
				t.Errorf("the first difference shown is %+v, want the first store error", c.Diffs)
			}
		})
	}
}

// TestSlowRedisShowsInTheRoundTrip pauses the Redis for 100ms in the middle
// of a lane's replay (CLIENT PAUSE, as a slow or stalled server): the largest
// round trip shows the added latency, the median does not, and no decision
// changes on the scheduled clock.
func TestSlowRedisShowsInTheRoundTrip(t *testing.T) {
	opts := needRedis(t)
	admin := redis.NewClient(opts)
	defer admin.Close()
	cfg := loadConfig(t, "testdata/mixed.yaml")
	traffic, err := Traffic(context.Background(), *cfg, []sim.LaneKind{sim.LaneTokenBucket}, 0)
	if err != nil {
		t.Fatal(err)
	}
	const pause = 100 * time.Millisecond
	progress := func(_ sim.LaneKind, done int) {
		if done == len(traffic[0].Attempts)/2 {
			if err := admin.ClientPause(context.Background(), pause).Err(); err != nil {
				t.Error(err)
			}
		}
	}
	checks, err := Check(context.Background(), opts, traffic, CheckOptions{
		Replay: Replay{Clock: ClockScheduled, Scale: 200, Prefix: prefix(t)}, Progress: progress,
	})
	if err != nil {
		t.Fatal(err)
	}
	c := checks[0]
	if c.RoundTripMax < pause/2 || c.RoundTrip >= pause/2 || c.Agreed != c.Attempts {
		t.Errorf("round trip p50 %v, max %v, %d of %d agreed; want max ≥ %v, p50 below it, all agreed",
			c.RoundTrip, c.RoundTripMax, c.Agreed, c.Attempts, pause/2)
	}
}
