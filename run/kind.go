package run

import (
	"context"

	"github.com/rlsim/rlsim/scenarios"
)

// kind runs one kind of scenario, a limiter comparison or a contention study:
// the pipeline reads a scenario through it, so that a kind of run is one
// implementation beside the others rather than a branch at every step.
type kind interface {
	// override replaces the overridden settings, lanes being ov.Lanes parsed,
	// and reports the flags that do not apply and the problems they leave;
	// valid is whether the scenario can still be run (and its budget estimated).
	override(ov Overrides, lanes []string) (valid bool, problems error)
	// run simulates the scenario to its end.
	run(ctx context.Context, o Options) (Outcome, error)
	// unwatchable, when not nil, says why the scenario has no lanes to watch live.
	unwatchable() error
}

// kindOf is what runs s.
func kindOf(s *scenarios.Scenario) kind {
	if s.Contention != nil {
		return study{s}
	}
	return comparison{s}
}
