package run

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// Options say how to run one scenario. The zero value runs it with sim's own
// engines, no budget, no trace and no progress.
type Options struct {
	// MaxEvents stops a run that reaches it, with an *InputError; 0: no budget.
	MaxEvents int64
	// Trace, when not nil, receives every attempt of a limiter comparison.
	Trace *TraceFile
	// Collect, when not nil, is asked once per limiter comparison for one more
	// sink of its attempts (a report's timeline); it may return nil.
	Collect func(sim.Config) sim.TraceSink
	// Progress, when not nil, is called as virtual time advances to now of end.
	Progress func(now, end time.Duration)

	// Simulate and Contend run the simulations; nil means sim.Run and
	// contention.Run. Tests replace them.
	Simulate func(context.Context, sim.Config, sim.Options) (sim.Result, error)
	Contend  func(context.Context, contention.Config) (contention.Result, error)
}

// Outcome is what running one scenario gave: exactly one of Result and
// Contention is set, as Scenario has a Config or a Contention.
type Outcome struct {
	Scenario   *scenarios.Scenario
	Result     *sim.Result
	Contention *contention.Result
}

// Scenario runs s, whose overrides are already applied, to its end. An error
// names s's file; a run stopped by the budget is an *InputError that says how
// to lift it, and a cancelled ctx gives ctx's error unchanged.
func Scenario(ctx context.Context, s *scenarios.Scenario, o Options) (Outcome, error) {
	out := Outcome{Scenario: s}
	if s.Contention != nil {
		contend := o.Contend
		if contend == nil {
			contend = contention.Run
		}
		c := *s.Contention
		c.MaxEvents = o.MaxEvents
		r, err := contend(ctx, c)
		if err != nil {
			return out, failed(s, err)
		}
		out.Contention = &r
		return out, nil
	}
	simulate := o.Simulate
	if simulate == nil {
		simulate = sim.Run
	}
	so := sim.Options{MaxEvents: o.MaxEvents, Progress: o.Progress}
	var sinks teeSink
	if o.Trace != nil {
		sinks = append(sinks, o.Trace.Sink(s.Name))
	}
	if o.Collect != nil {
		if sink := o.Collect(*s.Config); sink != nil {
			sinks = append(sinks, sink)
		}
	}
	switch len(sinks) {
	case 1:
		so.Trace = sinks[0]
	case 2:
		so.Trace = sinks
	}
	r, err := simulate(ctx, *s.Config, so)
	if err != nil {
		return out, failed(s, err)
	}
	out.Result = &r
	return out, nil
}

// teeSink hands every record to each of its sinks.
type teeSink []sim.TraceSink

func (t teeSink) Record(r *sim.TraceRecord) error {
	for _, s := range t {
		if err := s.Record(r); err != nil {
			return err
		}
	}
	return nil
}

func failed(s *scenarios.Scenario, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	var be *sim.BudgetError
	if errors.As(err, &be) {
		return BadInputf("%s: the run %v; nothing was written; to finish, lift the budget with --max-events above %d", s.File, be, be.Budget)
	}
	return fmt.Errorf("%s: %w", s.File, err)
}
