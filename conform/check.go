package conform

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/sim"
)

// CheckOptions say how Check replays and compares.
type CheckOptions struct {
	Replay Replay
	// Tolerance is what clock skew and round trips may explain, in virtual
	// time (see Outcome). Zero demands the same decisions and Retry-Afters.
	Tolerance time.Duration
	// Shown is how many differences per lane are kept in full.
	Shown int
	// Script, when set, replaces the reference script of every lane checked
	// (a user's own limiter, checked against one lane).
	Script *Limiter
	// Progress, when set, is told after each answer how many of a lane's
	// attempts have been answered; lanes call it concurrently.
	Progress func(lane sim.LaneKind, done int)
}

// LaneCheck is one lane's comparison of a limiter on Redis with the exact lane.
type LaneCheck struct {
	Lane   sim.LaneKind
	Script string
	Policy algorithms.Policy
	// OnStoreError is how the limit decided the attempts whose call failed
	// (Tally.StoreErrors; Tally.FailAdmitted of them admitted).
	OnStoreError sim.FailMode
	Tally
	Diffs []Diff // the first CheckOptions.Shown differences beyond tolerance
}

// Check replays each lane's traffic through its limiter on the Redis of
// redisOpts, every lane at once, each on its own connection, and compares.
// A Redis that cannot be reached or goes away (see GoneAfter) ends it with an
// *run.UnfinishedError, every lane stopped.
func Check(ctx context.Context, redisOpts *redis.Options, traffic []LaneTraffic, opts CheckOptions) ([]LaneCheck, error) {
	if err := checkReplay(opts.Replay); err != nil {
		return nil, err
	}
	if err := CheckExact(traffic); err != nil {
		return nil, err
	}
	for _, lt := range traffic {
		if err := CheckTolerance(lt.Policy, opts.Tolerance); err != nil {
			return nil, fmt.Errorf("lane %s: %w", lt.Lane, err)
		}
	}
	lanesCtx, stop := context.WithCancel(ctx)
	defer stop()
	checks := make([]LaneCheck, len(traffic))
	errs := make([]error, len(traffic))
	var wg sync.WaitGroup
	for i, lt := range traffic {
		lim := opts.Script
		if lim == nil {
			s, _ := scriptFor(lt.Lane, Atomic)
			lim = NewAtomic(s.Name, s.Source)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if checks[i], errs[i] = checkLane(lanesCtx, redisOpts, lt, lim, opts); errs[i] != nil {
				stop() // one Redis: the other lanes would meet the same
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var failed []error
	for i, err := range errs {
		if err != nil && !errors.Is(err, context.Canceled) { // a lane stopped for another's error
			failed = append(failed, fmt.Errorf("lane %s: %w", traffic[i].Lane, err))
		}
	}
	if len(failed) > 0 {
		return nil, errors.Join(failed...)
	}
	return checks, nil
}

// CheckTolerance reports a tolerance no comparison with a limit of policy p
// can mean: a negative one, or one of a window or more, within which every
// difference would fall (and every instant decided at, however absurd).
func CheckTolerance(p algorithms.Policy, tol time.Duration) error {
	switch {
	case tol < 0:
		return fmt.Errorf("tolerance must not be negative, got %v", tol)
	case tol >= p.Window:
		return fmt.Errorf("tolerance %v is not below the limit's window %v: every difference would be within it", tol, p.Window)
	}
	return nil
}

func checkLane(ctx context.Context, redisOpts *redis.Options, lt LaneTraffic, lim *Limiter, opts CheckOptions) (LaneCheck, error) {
	replay := opts.Replay
	replay.Prefix += lt.Lane.String() + ":"
	s, closeFn, err := newSession(ctx, redisOpts, lim, replay, lt.Policy, opts.Tolerance, false)
	if err != nil {
		return LaneCheck{}, err
	}
	defer closeFn()
	if s.fail, err = newFailMode(lt); err != nil {
		return LaneCheck{}, err
	}
	if opts.Progress != nil {
		s.answered = func(i int, _ Answer) { opts.Progress(lt.Lane, i+1) }
	}
	answers, err := s.run(ctx, lt.Attempts)
	if err != nil {
		return LaneCheck{}, err
	}
	tw, err := newTwin(lt.Lane, lt.Policy)
	if err != nil {
		return LaneCheck{}, err
	}
	t, diffs := tally(tw, lt.Attempts, answers, opts.Tolerance, opts.Shown)
	return LaneCheck{Lane: lt.Lane, Script: lim.Name, Policy: lt.Policy, OnStoreError: lt.OnStoreError, Tally: t, Diffs: diffs}, nil
}

func newFailMode(lt LaneTraffic) (*failMode, error) {
	f := &failMode{mode: lt.OnStoreError}
	if f.mode == sim.FailLocal {
		var err error
		if f.fallback, err = newTwin(lt.Lane, lt.Fallback); err != nil {
			return nil, fmt.Errorf("fallback: %w", err)
		}
	}
	return f, nil
}

// newSession opens a connection of its own and loads the scripts, so the
// first attempt pays no script upload; a concurrent session (a replica) has a
// pool of connections of its own, a few dialled ahead. tol is the comparison's
// tolerance, which the bounds of the script's answers allow for.
func newSession(ctx context.Context, redisOpts *redis.Options, lim *Limiter, replay Replay, p algorithms.Policy, tol time.Duration, concurrent bool) (*session, func(), error) {
	o := withDeadlines(*redisOpts, replay.Deadlines.call())
	// A failed call is a store error, told as such: no retries behind it.
	// No idle connection dialled ahead: after a restart the next call dials afresh.
	o.PoolSize, o.MaxRetries, o.DialerRetries = 1, -1, 1
	if concurrent {
		o.PoolSize, o.MinIdleConns = replicaPool, replicaPool/4
	}
	rdb := redis.NewClient(&o)
	s := &session{rdb: rdb, opts: &o, lim: lim, replay: replay, policy: p, concurrent: concurrent}
	if err := s.setUp(ctx); err != nil {
		rdb.Close()
		return nil, nil, err
	}
	s.rules = newAnswerRules(replay.Clock, replay.Scale, p, tol, s.epochSlack)
	// When ctx ends, a call blocked on a Redis that does not answer returns
	// at once: its connection is closed under it.
	stopClosing := context.AfterFunc(ctx, s.close)
	return s, func() { stopClosing(); s.close() }, nil
}

// setUp loads the scripts, reads the server's run_id and, on the server's
// clock, its epoch, each call within its deadline, and starts the clock.
func (s *session) setUp(ctx context.Context) error {
	for _, sc := range []*redis.Script{s.lim.atomic, s.lim.read, s.lim.write} {
		if sc == nil {
			continue
		}
		cctx, cancel := callCtx(ctx, s.replay.Deadlines)
		err := sc.Load(cctx, s.rdb).Err()
		cancel()
		switch {
		case err == nil:
		case ctx.Err() != nil:
			return ctx.Err()
		case redis.HasErrorPrefix(err, "Error compiling script"):
			return run.BadInput(fmt.Errorf("script %s: redis cannot load it: %w", s.lim.Name, err))
		case !isRedisError(err) || !scriptFailed(err): // no answer, or Redis's own state
			return unreachable("loading script "+s.lim.Name, err)
		default:
			return fmt.Errorf("loading script %s: %w", s.lim.Name, err)
		}
	}
	cctx, cancel := callCtx(ctx, s.replay.Deadlines)
	id, err := runID(cctx, s.rdb)
	cancel()
	if err != nil {
		return unreachable("INFO server", err)
	}
	s.runID = id
	if s.replay.Clock == ClockServer {
		cctx, cancel := callCtx(ctx, s.replay.Deadlines)
		asked := time.Now()
		epoch, err := serverEpoch(cctx, s.rdb)
		cancel()
		if err != nil {
			return unreachable("TIME", err)
		}
		s.epoch = epoch
		s.start = time.Now()
		// The server read its epoch somewhere in the call: its clock may run
		// ahead of the driver's by up to the call's round trip, and a µs
		// more for TIME's whole microseconds.
		s.epochSlack = time.Duration(float64(s.start.Sub(asked))*s.replay.Scale) + time.Microsecond
		return nil
	}
	s.start = time.Now()
	return nil
}

func isRedisError(err error) bool {
	var re redis.Error
	return errors.As(err, &re)
}

// replicaPool is the most connections a replica holds: the requests it has at
// the store at once.
const replicaPool = 32

// CheckExact reports every lane whose policy and duration would need integers
// that Lua's doubles do not hold exactly (above 2^53).
func CheckExact(traffic []LaneTraffic) error {
	var errs []error
	for _, lt := range traffic {
		if err := checkExact(lt.Policy, lastAt(lt.Attempts), maxCost(lt.Attempts)); err != nil {
			errs = append(errs, fmt.Errorf("lane %s: %w", lt.Lane, err))
		}
	}
	return errors.Join(errs...)
}

// MaxScale is the largest time scale: beyond it a microsecond of real time is
// more than a second of scenario time, and every send is late.
const MaxScale = 1e6

func checkReplay(r Replay) error {
	switch {
	case math.IsNaN(r.Scale) || r.Scale < 1 || r.Scale > MaxScale:
		return fmt.Errorf("time scale must be between 1 and %d, got %g", int64(MaxScale), r.Scale)
	case r.Clock == ClockServer && r.Scale != 1:
		return fmt.Errorf("the server clock runs in real time: time scale must be 1, got %g", r.Scale)
	}
	return nil
}

func lastAt(attempts []Attempt) time.Duration {
	if len(attempts) == 0 {
		return 0
	}
	return attempts[len(attempts)-1].At
}

func maxCost(attempts []Attempt) int64 {
	m := int64(1)
	for _, a := range attempts {
		m = max(m, a.Cost)
	}
	return m
}
