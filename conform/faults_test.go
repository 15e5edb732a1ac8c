package conform

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rlsim/rlsim/run"
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

// goneDeadlines are short deadlines for the tests that take a Redis away, so
// that they end in about a second; the mechanism is the defaults'.
var goneDeadlines = Deadlines{Call: 250 * time.Millisecond, Gone: 500 * time.Millisecond}

// goneWithin is how long a test waits for a run whose Redis went away to end
// before it calls it hung: many times the bound, for a loaded machine.
const goneWithin = 20 * (500 + 250) * time.Millisecond

// takeAway ends a redis-server's service: killed (connections refused), or
// stopped with SIGSTOP (connections accepted, calls never answered).
type takeAway struct {
	name string
	do   func(proc *os.Process, stop func())
}

var takeAways = []takeAway{
	{"killed", func(_ *os.Process, stop func()) { stop() }},
	{"stopped", func(proc *os.Process, _ func()) { proc.Signal(syscall.SIGSTOP) }},
}

// TestRedisGoneEndsTheRun kills or stops the Redis a check, then a race, talks
// to, part way through (and, for the check, near its end) and for good: the
// run ends, within many times its bound, with an *run.UnfinishedError that
// says what happened, never with results and never hanging.
func TestRedisGoneEndsTheRun(t *testing.T) {
	t.Parallel() // each case its own redis-server
	needRedis(t)
	traffic, err := Traffic(context.Background(), *loadConfig(t, "testdata/mixed.yaml"), ScriptLanes(), 0)
	if err != nil {
		t.Fatal(err)
	}
	fewest := len(traffic[0].Attempts)
	for _, lt := range traffic {
		fewest = min(fewest, len(lt.Attempts))
	}
	for _, away := range takeAways {
		for _, at := range []int{10, fewest - 2} {
			if away.name == "stopped" && at != 10 {
				continue // the end of a run waits for the streak alike, killed or stopped
			}
			t.Run(fmt.Sprintf("check/%s after %d", away.name, at), func(t *testing.T) {
				addr, proc, stop, err := startRedisProcess(0)
				if err != nil {
					t.Fatal(err)
				}
				defer stop()
				var once sync.Once
				progress := func(_ sim.LaneKind, done int) {
					if done == at {
						once.Do(func() { away.do(proc, stop) })
					}
				}
				ctx, cancel := context.WithTimeout(context.Background(), goneWithin)
				defer cancel()
				start := time.Now()
				checks, err := Check(ctx, &redis.Options{Addr: addr}, traffic, CheckOptions{
					Replay:   Replay{Clock: ClockDriver, Scale: 4, Prefix: prefix(t), Deadlines: goneDeadlines},
					Progress: progress,
				})
				t.Logf("ended after %v: %v", time.Since(start), err)
				var ue *run.UnfinishedError
				if !errors.As(err, &ue) || checks != nil || !strings.Contains(err.Error(), "no answer for ") ||
					!strings.Contains(err.Error(), "the run could not finish") {
					t.Errorf("Check = %d checks, %v; want no checks and an UnfinishedError saying no answer came", len(checks), err)
				}
			})
		}
		t.Run("race/"+away.name, func(t *testing.T) {
			addr, proc, stop, err := startRedisProcess(0)
			if err != nil {
				t.Fatal(err)
			}
			defer stop()
			var once sync.Once
			ctx, cancel := context.WithTimeout(context.Background(), goneWithin)
			defer cancel()
			start := time.Now()
			_, err = MeasureRace(ctx, &redis.Options{Addr: addr}, *loadConfig(t, "testdata/race.yaml"), RaceOptions{
				Lane: sim.LaneGCRA, Replicas: 4, Runs: 2,
				Replay: Replay{Scale: 1, Prefix: prefix(t), Deadlines: goneDeadlines},
				Progress: func(run, answered int) {
					if run == 0 && answered == 50 {
						once.Do(func() { away.do(proc, stop) })
					}
				},
			})
			t.Logf("ended after %v: %v", time.Since(start), err)
			var ue *run.UnfinishedError
			if !errors.As(err, &ue) || !strings.Contains(err.Error(), "replica ") ||
				!strings.Contains(err.Error(), "the run could not finish") {
				t.Errorf("MeasureRace = %v; want an UnfinishedError naming the replica", err)
			}
		})
	}
}

// TestUnreachableRedisCannotFinish points a check at a port nothing listens
// on and at one that accepts connections but never answers: each ends with
// an *run.UnfinishedError, the latter within the call's deadline.
func TestUnreachableRedisCannotFinish(t *testing.T) {
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	var held []net.Conn
	var mu sync.Mutex
	go func() {
		for {
			c, err := silent.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	}()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusing := closed.Addr().String()
	closed.Close()
	cfg := loadConfig(t, "testdata/mixed.yaml")
	traffic, err := Traffic(context.Background(), *cfg, ScriptLanes(), 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, addr := range []string{refusing, silent.Addr().String()} {
		ctx, cancel := context.WithTimeout(context.Background(), goneWithin)
		_, err := Check(ctx, &redis.Options{Addr: addr}, traffic, CheckOptions{
			Replay: Replay{Clock: ClockDriver, Scale: 10, Prefix: prefix(t), Deadlines: goneDeadlines},
		})
		cancel()
		var ue *run.UnfinishedError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "loading script") {
			t.Errorf("%s: Check = %v; want an UnfinishedError from loading the script", addr, err)
		}
	}
}
