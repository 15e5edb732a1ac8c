package sim

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// Simulation is a world being simulated through every lane, advanced in steps of
// virtual time (RunUntil) so live views can drive it, or to its end (RunToEnd).
// Each lane runs on its own clock; they never interact. It is not safe for
// concurrent use.
type Simulation struct {
	cfg   Config // with defaults
	opt   Options
	lanes []*lane
	now   time.Duration
}

// New validates cfg and prepares its simulation at virtual time zero.
func New(cfg Config, opt Options) (*Simulation, error) {
	return NewContext(context.Background(), cfg, opt)
}

// NewContext is New that stops with ctx's error when ctx is cancelled while the
// clients and lanes are being built, which takes seconds for millions of clients.
func NewContext(ctx context.Context, cfg Config, opt Options) (*Simulation, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cfg = cfg.withDefaults()
	pop, err := newPopulation(ctx, cfg.Clients, cfg.Limits)
	if err != nil {
		return nil, err
	}
	s := &Simulation{cfg: cfg, opt: opt}
	for i := range cfg.Lanes {
		l, err := newLane(ctx, i, s.cfg.laneConfig(i), pop, opt.Trace)
		if err != nil {
			return nil, err
		}
		s.lanes = append(s.lanes, l)
	}
	return s, nil
}

// newLane prepares lane index of cfg, which is the Config as that lane applies it.
func newLane(ctx context.Context, index int, cfg *Config, pop *population, trace TraceSink) (*lane, error) {
	m, err := newMetrics(cfg, pop, cfg.Bucket)
	if err != nil {
		return nil, err
	}
	l := &lane{
		kind: cfg.Lanes[index], index: index, name: cfg.LaneName(index), cfg: cfg, pop: pop, end: cfg.Duration + cfg.Drain, m: m, trace: trace, ruleAt: cfg.ruleAt(0), shadowed: -1,
		clients: make([]clientState, pop.clients()),
		extras:  make([]arrivalState, pop.extras),
	}
	if err := l.buildLimiters(); err != nil {
		return nil, err
	}
	for c := range l.clients {
		if c%setupCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		l.clients[c].retryRnd = streamFor(cfg.Seed, labelRetry, uint64(c))
		for j := range pop.groups[pop.groupOf[c]].Arrivals {
			rnd := streamFor(cfg.Seed, labelArrival, uint64(c), uint64(j))
			if j == 0 {
				l.clients[c].arrival.rnd = rnd
			} else {
				l.extras[pop.extraComp[c]+int32(j)-1].rnd = rnd
			}
		}
	}
	if cfg.Backend != nil {
		seed := streamFor(cfg.Seed, labelService)
		l.backend = newBackend(cfg.Backend, seed.next())
	}
	if err := l.start(ctx); err != nil {
		return nil, err
	}
	return l, nil
}

// policy is the policy lane (an index of Lanes) applies to limit i of the chain.
func (c *Config) policy(lane, i int) algorithms.Policy {
	if j := c.override(lane, i); j >= 0 {
		return c.Overrides[j].Policy
	}
	return c.Limits[i].Policy
}

// Labels of the random streams, so each purpose draws independently.
const (
	labelArrival = iota + 1
	labelRetry
	labelDrop
	labelService
	labelProbe
)

// buildLimiters builds what the lane's registry row says a request meets: a
// concurrency limiter, or a chain of per-key limiters (behind a client gate).
func (l *lane) buildLimiters() error {
	info := l.kind.Info()
	var err error
	switch {
	case info.concurrency != nil:
		l.conc, err = info.concurrency(l.cfg)
		l.shedRetryAfter = info.shedRetryAfter(l.cfg)
		return err
	case info.gate != nil:
		if l.gate, err = info.gate(l.cfg, len(l.clients)); err != nil {
			return err
		}
		return l.buildChain(l.cfg.Throttle.Server)
	}
	return l.buildChain(l.kind)
}

func (l *lane) buildChain(kind LaneKind) error {
	if l.cfg.Topology != nil {
		return l.buildFleet(kind)
	}
	for i := range l.cfg.Limits {
		p := l.cfg.policy(l.index, i)
		d, err := newDecider(kind, p, l.pop.keys[i].len())
		if err != nil {
			return FieldErrors{{Field: "limits[" + itoa(i) + "]", Problem: err.Error()}}
		}
		l.chain = append(l.chain, d)
		l.policies = append(l.policies, p)
		l.limits = append(l.limits, l.cfg.Limits[i])
		l.limits[i].Policy = p
		l.shadow = append(l.shadow, l.cfg.Limits[i].Shadow)
	}
	return nil
}

// Config is the configuration being simulated, with defaults filled in.
func (s *Simulation) Config() Config { return s.cfg }

// Events is how many events every lane together has processed so far.
func (s *Simulation) Events() int64 {
	var n int64
	for _, l := range s.lanes {
		n += l.events
	}
	return n
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

// RunUntil processes every event at or before t in every lane. It returns the
// trace sink's first error, if any.
func (s *Simulation) RunUntil(t time.Duration) error {
	for _, l := range s.lanes {
		for l.runUntil(t, s.quota(1<<30)) > 0 {
		}
		if l.err != nil {
			return l.err
		}
		if err := s.overBudget(l, t); err != nil {
			return err
		}
	}
	s.now = max(s.now, min(t, s.End()))
	return nil
}

// progressEvery is how many events a lane processes between checks of the
// context and calls to Progress.
const progressEvery = 1 << 16

// RunToEnd runs every lane to End, one lane after the other, checking ctx and
// reporting progress every so many events, and returns the result.
func (s *Simulation) RunToEnd(ctx context.Context) (Result, error) {
	end := s.End()
	for i, l := range s.lanes {
		for {
			q := s.quota(progressEvery)
			if l.runUntil(end, q) < q || q == 0 {
				break
			}
			if err := ctx.Err(); err != nil {
				return Result{}, err
			}
			if l.err != nil {
				return Result{}, l.err
			}
			s.progress(i, l.eng.now)
		}
		if l.err != nil {
			return Result{}, l.err
		}
		if err := s.overBudget(l, end); err != nil {
			return Result{}, err
		}
		s.progress(i, end)
	}
	s.now = end
	return s.Result(), ctx.Err()
}

// quota is how many events, up to n, the run may still process under its budget.
func (s *Simulation) quota(n int) int {
	if s.opt.MaxEvents <= 0 {
		return n
	}
	return int(min(int64(n), max(s.opt.MaxEvents-s.Events(), 0)))
}

// overBudget is a *BudgetError if lane l has spent the budget with events at or
// before t still to process, else nil.
func (s *Simulation) overBudget(l *lane, t time.Duration) error {
	at, ok := l.eng.next()
	if s.opt.MaxEvents <= 0 || !ok || at > min(t, l.end) {
		return nil
	}
	return &BudgetError{Budget: s.opt.MaxEvents, Where: fmt.Sprintf("in lane %v at t=%v of %v", l.name, l.eng.now, s.End())}
}

// progress reports the overall virtual time covered: lanes before i are done.
func (s *Simulation) progress(i int, laneNow time.Duration) {
	if s.opt.Progress == nil {
		return
	}
	end := s.End()
	total := end * time.Duration(len(s.lanes))
	done := end*time.Duration(i) + laneNow
	s.opt.Progress(done/time.Duration(len(s.lanes)), total/time.Duration(len(s.lanes)))
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
	for _, l := range s.lanes {
		lr := l.m.result(l.index, l.pop, l.cfg, l.backend, l.eng.now, l.clients)
		if l.fleet != nil {
			lr.Topology = l.fleet.topologyResult(l.cfg)
		}
		r.Lanes = append(r.Lanes, lr)
	}
	return r
}

func itoa(i int) string {
	return strconv.Itoa(i)
}
