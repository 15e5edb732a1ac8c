package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// speeds are the playback speeds in tenths of real time, 0.1× to 1000×.
var speeds = []int64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000}

const normalSpeed = 3 // 1×

// session is one page's simulation. Its mutex guards everything below it: the
// stream advances it on each tick, controls change it between ticks.
type session struct {
	id       string
	attached atomic.Bool
	unseen   *time.Timer   // ends it if no stream attaches in time (set by register)
	poke     chan struct{} // a control changed something: send a frame now

	mu        sync.Mutex
	sc        *scenarios.Scenario
	command   string // the rlsim run command line that plays sc without the page
	sim       *sim.Simulation
	bins      *bins
	width     time.Duration // of a column
	maxEvents int64         // the simulation's event budget, for the report's re-run
	controls  []control     // what the page changed, in order, for the report's re-run
	reporting bool          // a report is being written (planReport)
	speed     int           // index into speeds
	playing   bool
	finished  bool
	status    string
	bursts    []burstMark
	rates     []ruleMark // rate changes made from the page
	touched   bool       // a control changed the run: it is no longer rlsim run's
	held      holdings   // what it holds, checked before each control
	maxBytes  int64      // the most it may hold (Options.MaxSessionBytes)
}

// burstMark is a burst fired from the page, drawn on the timeline.
type burstMark struct {
	At     int64 `json:"at"` // ns
	Count  int   `json:"count"`
	Spread int64 `json:"spread"` // ns
}

// newSession builds the simulation of sc, whose overrides are applied;
// command is the rlsim run command line that plays it.
func newSession(ctx context.Context, sc *scenarios.Scenario, maxEvents int64, command string) (*session, error) {
	cfg := *sc.Config
	width := sim.ColumnWidth(cfg)
	lanes := cfg.Lanes
	if len(lanes) == 0 {
		lanes = sim.DefaultLanes()
	}
	b := newBins(width, lanes)
	s, err := sim.NewContext(ctx, cfg, sim.Options{Columns: b.Columns, MaxEvents: maxEvents})
	if err != nil {
		return nil, err
	}
	return &session{sc: sc, command: command, sim: s, bins: b, width: width, maxEvents: maxEvents, speed: normalSpeed, poke: make(chan struct{}, 1),
		held: holdings{base: footprint(sc.Config)}, maxBytes: DefaultMaxSessionBytes}, nil
}

// wake asks the stream to send a frame now.
func (s *session) wake() {
	select {
	case s.poke <- struct{}{}:
	default:
	}
}

// advance runs the simulation d further in virtual time, to its end at most.
// The caller holds mu.
func (s *session) advance(d time.Duration) {
	if s.finished {
		return
	}
	to := min(s.sim.Now()+d, s.sim.End())
	if err := s.sim.RunUntil(to); err != nil {
		s.finished, s.playing = true, false
		var be *sim.BudgetError
		if errors.As(err, &be) {
			s.status = fmt.Sprintf("stopped: %v; the server's budget is --max-events %d", err, be.Budget)
			return
		}
		s.status = "stopped: " + err.Error()
		return
	}
	if s.sim.Done() || s.sim.Now() >= s.sim.End() {
		s.finished, s.playing = true, false
		s.status = "finished: these are the figures " + s.command + " prints" + s.saved()
		if s.touched {
			s.status = "finished, with the changes made here: " + s.command + " plays it without them" + s.saved()
		}
	}
}

// tick advances one frame of wall time at the session's speed.
func (s *session) tick(frame time.Duration) {
	if s.playing {
		s.advance(frame * time.Duration(speeds[s.speed]) / 10)
	}
}

// command is a control sent by the page.
type command struct {
	Op string `json:"op"` // play, pause, step, speed, burst, rule, rate, sample
	// speed: the index into the speeds; rate: the group.
	Index int `json:"index"`
	// step: how many columns (1 when 0); burst: how many requests over how
	// long (ns); rate: per second.
	Count  int   `json:"count"`
	Spread int64 `json:"spread"`
	// rule: the first limit's new policy (window in ns).
	Limit  int64 `json:"limit"`
	Window int64 `json:"window"`
	Burst  int64 `json:"burst"`
	// sample: the lane's row, the column and the mark.
	Lane   int   `json:"lane"`
	Column int64 `json:"column"`
	Mark   int   `json:"mark"`
}

// controlReply answers a command: a status line, and a sample for "sample".
type controlReply struct {
	Status string  `json:"status"`
	Sample *sample `json:"sample,omitempty"`
}

// errBadCommand is a command that cannot be applied; the page shows its text.
type errBadCommand struct{ msg string }

func (e errBadCommand) Error() string { return e.msg }

func bad(format string, args ...any) error { return errBadCommand{fmt.Sprintf(format, args...)} }

// hold checks that injecting n requests and drawing marks more leaves the
// session within its bound, and counts them when it does.
func (s *session) hold(what string, n, marks int) error {
	cfg := s.sim.Config()
	return s.held.admit(&cfg, what, n, marks, s.maxBytes)
}

// apply runs one command. The caller holds mu. Every command is checked
// against what the session may hold before it is applied: a burst, a rule push
// and a rate change add to it (hold), the others hold nothing more.
func (s *session) apply(c command) (controlReply, error) {
	if err := s.hold("refused", 0, 0); err != nil {
		return controlReply{}, err
	}
	switch c.Op {
	case "play":
		if s.finished {
			return controlReply{}, bad("the run has finished: restart plays it again")
		}
		s.playing, s.status = true, ""
	case "pause":
		s.playing = false
	case "step":
		if s.playing {
			return controlReply{}, bad("step works while paused")
		}
		n := max(c.Count, 1)
		if n > maxSteps {
			return controlReply{}, bad("step: at most %d columns at once, got %d", maxSteps, n)
		}
		now := s.sim.Now()
		s.advance((now/s.width+time.Duration(n))*s.width - now)
	case "speed":
		if c.Index < 0 || c.Index >= len(speeds) {
			return controlReply{}, bad("speed: index must be 0 to %d, got %d", len(speeds)-1, c.Index)
		}
		s.speed = c.Index
	case "burst":
		return s.fireBurst(c.Count, time.Duration(c.Spread))
	case "rule", "rate":
		if s.finished {
			return controlReply{}, bad("no change: the run has finished; restart plays it again")
		}
		if c.Op == "rule" {
			return s.changeRule(c)
		}
		return s.changeRate(c.Index, c.Count)
	case "sample":
		smp, ok := s.sample(c.Lane, c.Column, c.Mark)
		if !ok {
			return controlReply{}, bad("that column is no longer held; hover a recent one")
		}
		return controlReply{Sample: &smp}, nil
	default:
		return controlReply{}, bad("unknown control %q (want play, pause, step, speed, burst, rule, rate or sample)", c.Op)
	}
	return controlReply{Status: s.status}, nil
}

// maxSteps is the most columns one step may cover.
const maxSteps = 1000

// burstClient is the client a burst is sent as: the scenario's first, so the
// burst meets the same keys as its traffic.
const burstClient = 0

// maxBurst is the largest burst a page may fire: far above any limit worth
// watching, small enough that every lane takes it in a blink.
const maxBurst = 100_000

func (s *session) fireBurst(n int, spread time.Duration) (controlReply, error) {
	now := s.sim.Now()
	if n < 1 || n > maxBurst {
		return controlReply{}, bad("no burst: the size must be 1 to %d, got %d", maxBurst, n)
	}
	if s.finished {
		return controlReply{}, bad("no burst: the run has finished; restart plays it again")
	}
	if now >= s.sim.Config().Duration {
		return controlReply{}, bad("no burst: new requests stop at t=%s, the end of the scenario's traffic", instant(s.sim.Config().Duration))
	}
	spread = min(max(spread, 0), s.sim.Config().Duration-now)
	prev := s.held
	if err := s.hold("no burst", n, 1); err != nil {
		return controlReply{}, err
	}
	if err := s.sim.Inject(burstClient, n, spread); err != nil {
		s.held = prev
		return controlReply{}, bad("no burst: %v", err)
	}
	s.touched = true
	s.controls = append(s.controls, control{at: now, apply: func(sm *sim.Simulation) error { return sm.Inject(burstClient, n, spread) }})
	s.bursts = append(s.bursts, burstMark{At: int64(now), Count: n, Spread: int64(spread)})
	cl := s.sim.Config().Clients[0]
	s.status = fmt.Sprintf("burst of %d over %v fired at t=%s as %s", n, spread, instant(now), cl.IdentityOf(0).User)
	return controlReply{Status: s.status}, nil
}

func (s *session) changeRule(c command) (controlReply, error) {
	p := s.sim.Rule(0).Policy
	p.Limit, p.Window, p.Burst = c.Limit, time.Duration(c.Window), c.Burst
	if err := p.Validate(); err != nil { // the zero policy would mean "keep each lane's"
		return controlReply{}, bad("no change: %v", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
	ch := sim.RuleChange{At: s.sim.Now(), Limit: 0, Policy: p, Shadow: s.sim.Rule(0).Shadow}
	prev := s.held
	if err := s.hold("no change", 0, 1); err != nil {
		return controlReply{}, err
	}
	cfg := s.sim.Config()
	if err := s.held.admitWindow(&cfg, p.Window, s.maxBytes); err != nil {
		s.held = prev
		return controlReply{}, err
	}
	if err := s.sim.ChangeRule(ch); err != nil {
		s.held = prev
		return controlReply{}, bad("no change: %v", err)
	}
	s.touched = true
	s.controls = append(s.controls, control{at: ch.At, apply: func(sm *sim.Simulation) error { return sm.ChangeRule(ch) }})
	s.status = fmt.Sprintf("at t=%s, %s: %s", instant(ch.At), s.sim.Config().Limits[0].Name, policyText(p))
	return controlReply{Status: s.status}, nil
}

func (s *session) changeRate(group, perSecond int) (controlReply, error) {
	prev := s.held
	if err := s.hold("no change", 0, 1); err != nil {
		return controlReply{}, err
	}
	if cfg := s.sim.Config(); group >= 0 && group < len(cfg.Clients) && perSecond > 0 {
		if err := s.held.admitRate(&cfg, group, liveAt(&cfg, group, perSecond, s.sim.Now()), s.maxBytes); err != nil {
			s.held = prev
			return controlReply{}, err
		}
	}
	rate := sim.Rate{Count: int64(perSecond), Per: time.Second}
	if err := s.sim.ChangeRate(group, rate); err != nil {
		s.held = prev
		return controlReply{}, bad("no change: %v", err)
	}
	s.touched = true
	s.controls = append(s.controls, control{at: s.sim.Now(), apply: func(sm *sim.Simulation) error { return sm.ChangeRate(group, rate) }})
	s.status = fmt.Sprintf("at t=%s, each client of %s sends %d/s", instant(s.sim.Now()), s.sim.Config().Clients[group].Name, perSecond)
	s.rates = append(s.rates, ruleMark{At: int64(s.sim.Now()), Text: fmt.Sprintf("%s: %d/s each", s.sim.Config().Clients[group].Name, perSecond)})
	return controlReply{Status: s.status}, nil
}

func policyText(p algorithms.Policy) string {
	return fmt.Sprintf("limit %d per %v, burst %d", p.Limit, p.Window, p.EffectiveBurst())
}

// saved says where the command expects a scenario written in the editor.
func (s *session) saved() string {
	if s.sc.File != editorFile {
		return ""
	}
	return " (the editor's scenario saved as " + editorFile + ")"
}

// control is a change the page made to the run, at virtual time at, as
// apply makes it again on a simulation of the same scenario.
type control struct {
	at    time.Duration
	apply func(*sim.Simulation) error
}

// reportPlan is what the report of a session needs of it, taken under the
// session's mutex so that the re-run goes on without holding it: the page
// plays on while its report is written.
type reportPlan struct {
	sc        *scenarios.Scenario
	controls  []control
	to        time.Duration // the session's instant
	maxEvents int64
	command   string // as the report names it
}

// planReport is the plan of the session's report, or an error over budget
// when its re-run would not fit the session's bound or another report of
// the session is being written. The caller holds mu, and calls reportDone
// under it once the report is written.
func (s *session) planReport() (reportPlan, error) {
	if s.reporting {
		return reportPlan{}, errOverBudget{"no report: one of this session is being written; download it again once that one is done"}
	}
	if err := s.reportFits(); err != nil {
		return reportPlan{}, err
	}
	s.reporting = true
	command := s.command
	if s.touched || !s.finished {
		command = fmt.Sprintf("# played live in rlsim serve to t=%s, with %d burst(s) fired and the rule pushes listed;\n# without them%s:\n%s",
			instant(s.sim.Now()), len(s.bursts), s.saved(), command)
	}
	return reportPlan{sc: s.sc, controls: slices.Clone(s.controls), to: s.sim.Now(), maxEvents: s.maxEvents, command: command}, nil
}

// reportDone ends the report planReport planned. The caller holds mu.
func (s *session) reportDone() { s.reporting = false }

// reportHTML writes the run so far as rlsim's HTML report. The session counts
// columns and builds no trace; the report's timeline needs one, so it runs
// the scenario again to where the session was, traced, with the page's
// changes made at the instants they were made (replay).
func (p reportPlan) reportHTML(ctx context.Context) ([]byte, error) {
	res, tl, err := p.replay(ctx)
	if err != nil {
		return nil, err
	}
	out := run.Outcome{Scenario: p.sc, Result: &res, Checks: run.Checks(p.sc.Checks, &res)}
	page, err := report.NewPage(report.NewRun(out, tl), p.command)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := report.WriteHTML(&b, []report.Page{page}); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// replaySteps is how many steps of virtual time a replay runs in, checking
// its context between them.
const replaySteps = 100

// replay runs the session's scenario again, traced into a report timeline,
// to the session's instant, making the page's changes where the session made
// them; the result is the session's (TestReportReplaysTheSession). An event
// budget stops it where it stopped the session.
func (p reportPlan) replay(ctx context.Context) (sim.Result, *report.Timeline, error) {
	cfg := *p.sc.Config
	tl := report.NewTimeline(cfg)
	r, err := sim.NewContext(ctx, cfg, sim.Options{Trace: tl, MaxEvents: p.maxEvents})
	if err != nil {
		return sim.Result{}, nil, err
	}
	var budget *sim.BudgetError
	runTo := func(t time.Duration) error {
		step := max(t/replaySteps, 1)
		for r.Now() < t {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := r.RunUntil(min(r.Now()+step, t)); err != nil {
				return err
			}
		}
		return nil
	}
	for _, c := range p.controls {
		if err := runTo(c.at); err != nil {
			if errors.As(err, &budget) {
				return r.Result(), tl, nil
			}
			return sim.Result{}, nil, err
		}
		if err := c.apply(r); err != nil {
			return sim.Result{}, nil, fmt.Errorf("report: the page's change at t=%s: %w", instant(c.at), err)
		}
	}
	if err := runTo(p.to); err != nil && !errors.As(err, &budget) {
		return sim.Result{}, nil, err
	}
	return r.Result(), tl, nil
}

// reportFits reports, as an error over budget, a report that would not fit
// the session's bound: its re-run holds as much again as the session holds.
func (s *session) reportFits() error {
	cfg := s.sim.Config()
	held := s.held.bytes(&cfg)
	if 2*held > s.maxBytes {
		return errOverBudget{fmt.Sprintf("no report: it runs the session again with a trace, which would hold about %s beside the session's %s, over the %s a session may hold here",
			mb(held), mb(held), mb(s.maxBytes))}
	}
	return nil
}
