package conform

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rlsim/rlsim/algorithms"
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
func Check(ctx context.Context, redisOpts *redis.Options, traffic []LaneTraffic, opts CheckOptions) ([]LaneCheck, error) {
	if err := checkReplay(opts.Replay); err != nil {
		return nil, err
	}
	if err := CheckExact(traffic); err != nil {
		return nil, err
	}
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
			checks[i], errs[i] = checkLane(ctx, redisOpts, lt, lim, opts)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("lane %s: %w", traffic[i].Lane, err)
		}
	}
	return checks, nil
}

func checkLane(ctx context.Context, redisOpts *redis.Options, lt LaneTraffic, lim *Limiter, opts CheckOptions) (LaneCheck, error) {
	replay := opts.Replay
	replay.Prefix += lt.Lane.String() + ":"
	s, closeFn, err := newSession(ctx, redisOpts, lim, replay, lt.Policy, false)
	if err != nil {
		return LaneCheck{}, err
	}
	defer closeFn()
	if s.fail, err = newFailMode(lt); err != nil {
		return LaneCheck{}, err
	}
	if opts.Progress != nil {
		s.progress = func(done int) { opts.Progress(lt.Lane, done) }
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
// pool of connections of its own, a few dialled ahead.
func newSession(ctx context.Context, redisOpts *redis.Options, lim *Limiter, replay Replay, p algorithms.Policy, concurrent bool) (*session, func(), error) {
	o := *redisOpts
	// A failed call is a store error, told as such: no retries behind it.
	// No idle connection dialled ahead: after a restart the next call dials afresh.
	o.PoolSize, o.MaxRetries, o.DialerRetries = 1, -1, 1
	if concurrent {
		o.PoolSize, o.MinIdleConns = replicaPool, replicaPool/4
	}
	rdb := redis.NewClient(&o)
	s := &session{rdb: rdb, opts: &o, lim: lim, replay: replay, policy: p, concurrent: concurrent}
	for _, sc := range []*redis.Script{lim.atomic, lim.read, lim.write} {
		if sc == nil {
			continue
		}
		if err := sc.Load(ctx, rdb).Err(); err != nil {
			rdb.Close()
			return nil, nil, fmt.Errorf("loading script %s: %w", lim.Name, err)
		}
	}
	if replay.Clock == ClockServer {
		epoch, err := serverEpoch(ctx, rdb)
		if err != nil {
			rdb.Close()
			return nil, nil, err
		}
		s.epoch = epoch
	}
	id, err := runID(ctx, rdb)
	if err != nil {
		rdb.Close()
		return nil, nil, err
	}
	s.runID = id
	s.start = time.Now()
	return s, func() { s.rdb.Close() }, nil
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

func checkReplay(r Replay) error {
	switch {
	case r.Scale < 1:
		return fmt.Errorf("time scale must be at least 1, got %g", r.Scale)
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
