package sim

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/rlsim/rlsim/sim/engine"
)

// Simulation is a world being simulated through every lane, advanced in steps of
// virtual time (RunUntil) so live views can drive it, or to its end (RunToEnd).
// Each lane runs on its own clock; they never interact. It is not safe for
// concurrent use.
type Simulation struct {
	cfg   Config // with defaults
	opt   Options
	lanes []*lane // nil where not built yet or released (see run_streamed.go)
	now   time.Duration
	pool  eventPool // the budget left, while lanes run

	streamed *streamedLanes // nil unless lanes are built as they start (Run)
}

// New validates cfg and prepares its simulation at virtual time zero.
func New(cfg Config, opt Options) (*Simulation, error) {
	return NewContext(context.Background(), cfg, opt)
}

// NewContext is New that stops with ctx's error when ctx is cancelled while the
// clients and lanes are being built, which takes seconds for millions of clients.
func NewContext(ctx context.Context, cfg Config, opt Options) (*Simulation, error) {
	s, pop, err := newSimulation(ctx, cfg, opt)
	if err != nil {
		return nil, err
	}
	for i := range s.cfg.Lanes {
		l, err := newLane(ctx, i, s.cfg.laneConfig(i), pop, opt.Trace, s.columns(i))
		if err != nil {
			return nil, err
		}
		s.lanes = append(s.lanes, l)
	}
	return s, nil
}

// newSimulation validates cfg and builds its population, but no lane yet.
func newSimulation(ctx context.Context, cfg Config, opt Options) (*Simulation, *population, error) {
	if err := cfg.Validate(); err != nil {
		return nil, nil, err
	}
	cfg = cfg.withDefaults()
	pop, err := newPopulation(ctx, cfg.Clients, cfg.Limits)
	if err != nil {
		return nil, nil, err
	}
	if opt.Columns != nil && opt.Columns.Lanes() != len(cfg.Lanes) {
		opt.Columns.size(len(cfg.Lanes))
	}
	return &Simulation{cfg: cfg, opt: opt}, pop, nil
}

// columns is lane i's ring of Options.Columns, or nil when not counted.
func (s *Simulation) columns(i int) *ColumnRing {
	if s.opt.Columns == nil {
		return nil
	}
	return s.opt.Columns.Lane(i)
}

// newLane prepares lane index of cfg, which is the Config as that lane applies it.
func newLane(ctx context.Context, index int, cfg *Config, pop *population, trace TraceSink, cols *ColumnRing) (*lane, error) {
	m, err := newMetrics(cfg, cfg.policy(index, 0), pop, cfg.Bucket)
	if err != nil {
		return nil, err
	}
	l := &lane{
		kind: cfg.Lanes[index], index: index, name: cfg.LaneName(index), cfg: cfg, pop: pop, end: cfg.Duration + cfg.Drain, m: m, trace: trace, cols: cols, ruleAt: cfg.ruleAt(0), shadowed: -1,
		clients: ownLines[clientState](pop.clients()),
		extras:  ownLines[arrivalState](pop.extras),
		means:   ownLines[superposedMean](len(pop.groups)),
		reqs:    requests{free: ownLines[int32](0)},

		refusalStatus: cfg.RefusalStatus(index),
	}
	if err := l.buildLimiters(); err != nil {
		return nil, err
	}
	l.allocClientSlices()
	for c := range l.clients {
		if c%setupCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if l.retryRnd != nil {
			l.retryRnd[c] = engine.NewStream(cfg.Seed, labelRetry, uint64(c))
		}
		if b := pop.groups[pop.groupOf[c]].Retry.Budget; l.budgets != nil && b != nil {
			l.budgets[c] = newRetryBudget(*b)
		}
		switch g := pop.groupOf[c]; {
		case pop.superposed[g]:
			if pop.indexOf[c] == 0 {
				l.streams[g].rnd = engine.NewStream(cfg.Seed, labelArrival, uint64(c), 0) // its first client's
			}
			continue
		case oneShot(&pop.groups[g]):
			continue // a burst draws nothing
		}
		for j := range pop.groups[pop.groupOf[c]].Arrivals {
			rnd := engine.NewStream(cfg.Seed, labelArrival, uint64(c), uint64(j))
			if j == 0 {
				l.arrivals[c].rnd = rnd
			} else {
				l.extras[pop.extraComp[c]+int32(j)-1].rnd = rnd
			}
		}
	}
	if cfg.Backend != nil {
		seed := engine.NewStream(cfg.Seed, labelService)
		l.backend = newBackend(cfg.Backend, seed.Uint64())
		l.sheds = newShedders(cfg.Backend, len(pop.groups))
	}
	l.cold = pop.clients() >= warmFrom || pop.keys[0].len() >= warmFrom || warmAlways
	l.setKernel()
	// Room for every client's first arrivals: a heap grown by append would
	// hold its old and new arrays at once while it grows.
	l.eng.Grow(firstEvents(pop))
	if err := l.start(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

// firstEvents is how many arrivals start schedules: one per component of each
// client, but one per superposed or oneShot group.
func firstEvents(pop *population) int {
	if pop.clients() == 0 {
		return 0 // probeLanes's population: groups without clients
	}
	n := 0
	for g := range pop.groups {
		grp := &pop.groups[g]
		if pop.superposed[g] || oneShot(grp) {
			n++
		} else {
			n += grp.Count * len(grp.Arrivals)
		}
	}
	return n
}

// allocClientSlices allocates, one entry per client, the client state that
// only some groups need, if any group needs it: arrival streams (a group
// neither oneShot nor superposed), retry draws (a group that retries), pauses
// (a pacing group); and each group's shared stream, if superposed.
func (l *lane) allocClientSlices() {
	n := l.pop.clients()
	l.streams = make([]arrivalState, len(l.pop.groups))
	for g := range l.pop.groups {
		grp := &l.pop.groups[g]
		if l.arrivals == nil && !oneShot(grp) && !superposable(grp) {
			l.arrivals = make([]arrivalState, n)
		}
		if l.retryRnd == nil && grp.Retry.Kind != RetryNone {
			l.retryRnd = make([]engine.Stream, n)
		}
		if l.paused == nil && grp.Pace {
			l.paused = make([]time.Duration, n)
		}
		if l.budgets == nil && grp.Retry.Budget != nil && grp.Retry.Kind != RetryNone {
			l.budgets = make([]retryBudget, n)
		}
	}
}

// buildLimiters builds what the lane's registry row says a request meets: a
// concurrency limiter, or a chain of per-key limiters (behind a client gate).
func (l *lane) buildLimiters() error {
	info := l.kind.Info()
	var err error
	switch {
	case info.concurrency != nil:
		l.conc, err = info.concurrency(l.cfg)
		l.shedRetryAfter = info.shedRetryAfter(l.cfg)
		if err == nil {
			l.adapt = newAdaptiveSampler(l.cfg.Bucket, l.conc)
			l.parts = newPartitioned(l.cfg, l.conc)
		}
		return err
	case info.gate != nil:
		if l.gate, err = info.gate(l.cfg, len(l.clients)); err != nil {
			return err
		}
		l.adapt = newAdaptiveSampler(l.cfg.Bucket, nil)
		return l.buildChain(l.cfg.Throttle.Server)
	}
	return l.buildChain(l.kind)
}

func (l *lane) buildChain(kind LaneKind) error {
	if l.cfg.Topology != nil && !l.oneLimiterFleet() {
		return l.buildFleet(kind)
	}
	for i := range l.cfg.Limits {
		p := l.cfg.policy(l.index, i)
		d, err := l.limitDecider(kind, i, p)
		if err != nil {
			return err
		}
		l.chain = append(l.chain, d)
		l.policies = append(l.policies, p)
		l.limits = append(l.limits, l.cfg.Limits[i])
		l.limits[i].Policy = p
		l.shadow = append(l.shadow, l.cfg.Limits[i].Shadow)
	}
	l.setQuickPath()
	if l.cfg.Topology != nil {
		return l.buildAsOne(kind)
	}
	return nil
}

// Config is the configuration being simulated, with defaults filled in.
func (s *Simulation) Config() Config { return s.cfg }

// Events is how many events every lane together has processed so far.
func (s *Simulation) Events() int64 {
	var n int64
	for _, l := range s.lanes {
		if l != nil {
			n += l.events
		}
	}
	return n + s.streamed.releasedEvents()
}

// Now is the virtual time every lane has reached.
func (s *Simulation) Now() time.Duration { return s.now }

// End is when the run stops at the latest: Duration plus Drain.
func (s *Simulation) End() time.Duration { return s.cfg.Duration + s.cfg.Drain }

// Done reports whether every lane has run out of events before End.
func (s *Simulation) Done() bool {
	for _, l := range s.lanes {
		if !l.done() {
			return false
		}
	}
	return true
}

// RunUntil processes every event at or before t in every lane, the lanes in
// parallel (see workers); a trace sink receives each lane's records in lane
// order, as if the lanes had run one after the other. It returns the trace
// sink's first error, if any.
func (s *Simulation) RunUntil(t time.Duration) error {
	pool := &s.pool
	pool.reset(s.opt.MaxEvents, s.Events())
	if s.workers() == 1 {
		for _, l := range s.lanes { // no closure: a step allocates nothing
			if err := runLane(l, t, pool, 1<<30, nil); err != nil {
				return err
			}
		}
	} else if err := s.runUntilParallel(t, pool); err != nil {
		return err
	}
	if err := s.finish(t, pool); err != nil {
		return err
	}
	s.now = max(s.now, min(t, s.End()))
	return nil
}

// progressEvery is how many events a lane processes between checks of the
// context and reports of progress.
const progressEvery = 1 << 16

// RunToEnd runs every lane to End, checking ctx and reporting progress every so
// many events, and returns the result. The lanes run in parallel (see workers)
// unless a trace sink is set that is not a LaneTraceSink: such a trace is
// written lane after lane, as it comes, so its lanes run one after the other.
// Either way the result is the same.
func (s *Simulation) RunToEnd(ctx context.Context) (Result, error) {
	end := s.End()
	pool := &s.pool
	pool.reset(s.opt.MaxEvents, s.Events())
	meter := s.newProgressMeter()
	parallel := s.opt.Trace == nil || s.splitTrace()
	defer s.joinTrace()
	err := s.eachLane(parallel, func(i int, l *lane) error {
		if lanes, leader, follower := s.streamed.sharing(i); follower {
			return nil // its leader runs it
		} else if leader {
			return s.runShared(ctx, lanes, meter)
		}
		l, err := s.streamed.build(ctx, s, i, l)
		if err != nil {
			return err
		}
		err = runLane(l, end, pool, progressEvery, func() error {
			meter.lane(i, l.eng.Now(), l.events)
			return ctx.Err()
		})
		if err == nil {
			meter.lane(i, end, l.events)
			s.streamed.release(s, i)
		}
		return err
	})
	s.streamed.adopt(s)
	if err == nil {
		err = s.finish(end, pool)
	}
	if err != nil {
		return Result{}, err
	}
	s.now = end
	return s.Result(), ctx.Err()
}

// finish hands what is left of the budget to the lanes that found it spent
// while others still held some, in lane order, so the run stops exactly at the
// budget whichever lanes ran at once; then it is the budget's error, if a lane
// still has events at or before t.
func (s *Simulation) finish(t time.Duration, pool *eventPool) error {
	for _, l := range s.lanes {
		if l == nil {
			continue // released: it had nothing left to do
		}
		if err := runLane(l, t, pool, 1<<30, nil); err != nil {
			return err
		}
	}
	for _, l := range s.lanes {
		if l == nil {
			continue
		}
		if err := s.overBudget(l, t); err != nil {
			return err
		}
	}
	return nil
}

// overBudget is a *BudgetError if lane l has spent the budget with events at or
// before t still to process, else nil.
func (s *Simulation) overBudget(l *lane, t time.Duration) error {
	at, ok := l.eng.Next()
	if s.opt.MaxEvents <= 0 || !ok || at > min(t, l.end) {
		return nil
	}
	return &BudgetError{Budget: s.opt.MaxEvents, Where: fmt.Sprintf("in lane %v at t=%v of %v", l.name, l.eng.Now(), s.End())}
}

// Result is what has been measured so far.
func (s *Simulation) Result() Result {
	r := Result{
		Name: s.cfg.Name, Seed: s.cfg.Seed, Duration: s.cfg.Duration,
		Limits: s.cfg.Limits, Bucket: s.cfg.Bucket, HeaderStyle: s.cfg.HeaderStyle, Topology: s.cfg.Topology,
	}
	for _, ch := range s.cfg.Rules {
		if ch.At <= s.now {
			r.Rules = append(r.Rules, ch)
		}
	}
	for i, l := range s.lanes {
		if l == nil {
			r.Lanes = append(r.Lanes, s.streamed.results[i])
			continue
		}
		r.Lanes = append(r.Lanes, l.result())
	}
	return r
}

// result is what lane l has measured so far.
func (l *lane) result() LaneResult {
	lr := l.m.result(l.index, l.pop, l.cfg, l.eng.Now(), l.clients)
	if l.backend != nil {
		lr.Backend = l.backend.stats(l.eng.Now(), &l.m.latency)
	}
	switch {
	case l.fleet != nil:
		lr.Topology = l.fleet.topologyResult(l.cfg)
	case l.asOne != nil:
		lr.Topology = l.asOne.oneLimiterResult()
	}
	if l.index < len(l.cfg.Variants) && l.cfg.Variants[l.index].ownSetup() {
		lr.Setup = &LaneSetup{Topology: l.cfg.Topology, Limits: l.cfg.Limits}
	}
	lr.Adaptive = l.adapt.state(len(lr.Series))
	lr.KeyTables = slices.Concat(l.keyTables, l.keyTablesNow())
	lr.NearLimit = l.nearLimits()
	lr.InFlight = l.inFlightPeaks()
	if l.parts != nil {
		lr.Partitions = l.parts.result()
	}
	lr.ShedBy, lr.Criticality = l.sheddingResult(lr.Classes)
	return lr
}
