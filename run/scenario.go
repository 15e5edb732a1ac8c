package run

import (
	"context"
	"errors"
	"fmt"

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
	// Progress, when not nil, is called now and then as the run advances.
	Progress func(sim.Progress)
	// Cores, when positive, is the most lanes of a limiter comparison that
	// run at once (sim.Options.Cores); 0: one on each core.
	Cores int

	// Simulate runs a limiter comparison; nil means sim.Run. Tests replace it.
	Simulate func(context.Context, sim.Config, sim.Options) (sim.Result, error)
}

// Outcome is what running one scenario gave: exactly one of Result and
// Contention is set, as Scenario has a Config or a Contention.
type Outcome struct {
	Scenario   *scenarios.Scenario
	Result     *sim.Result
	Contention *contention.Result
	// Checks are the scenario's checks measured on Result, in the order written.
	Checks []CheckResult
}

// Scenario runs s, whose overrides are already applied, to its end. An error
// names s's file; a run stopped by the budget is an *InputError that says how
// to lift it, and a cancelled ctx gives ctx's error unchanged.
func Scenario(ctx context.Context, s *scenarios.Scenario, o Options) (Outcome, error) {
	out, err := kindOf(s).run(ctx, o)
	if err != nil {
		return out, failed(s, err)
	}
	return out, nil
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
