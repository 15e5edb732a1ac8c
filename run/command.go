package run

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// DefaultMaxEvents is the event budget above which a run is refused unless
// --max-events lifts it: a few seconds of simulation.
const DefaultMaxEvents = 50_000_000

// Command is the command line "rlsim run arg" with these overrides, from seed:
// it runs arg again as it ran. A budget that is the default is left out.
func (ov Overrides) Command(arg string, seed uint64) string {
	parts := []string{"rlsim", "run", ShellQuote(arg), "--seed", fmt.Sprint(seed)}
	// A flag that does not apply to arg's kind of run was refused before it ran.
	if ov.Duration > 0 {
		parts = append(parts, "--duration", ov.Duration.String())
	}
	if ov.Lanes != "" {
		parts = append(parts, "--lanes", ShellQuote(ov.Lanes))
	}
	for _, set := range ov.Sets {
		parts = append(parts, "--set", ShellQuote(set))
	}
	if ov.Config != nil {
		parts = append(parts, "--config", ShellQuote(ov.Config.Path))
		if ov.Config.From != "" && ov.Config.From != "auto" {
			parts = append(parts, "--from", ov.Config.From)
		}
	}
	if ov.MaxEvents != DefaultMaxEvents && ov.MaxEvents > 0 {
		parts = append(parts, "--max-events", fmt.Sprint(ov.MaxEvents))
	}
	return strings.Join(parts, " ")
}

// ShellQuote quotes s for a POSIX shell when it needs it.
func ShellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:=+@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Validate loads arg with sets and checks it against the event budget
// maxEvents, as rlsim run would before running it; a budget refused says the
// --max-events that lifts it.
func Validate(arg string, sets []scenarios.Set, maxEvents int64) (*scenarios.Scenario, error) {
	return ValidateWith(arg, sets, maxEvents, nil)
}

// ValidateWith is Validate with cfg's limits, lanes and chain written into
// the scenario (--config), when cfg is not nil.
func ValidateWith(arg string, sets []scenarios.Set, maxEvents int64, cfg *Config) (*scenarios.Scenario, error) {
	load := Load
	if cfg != nil {
		load = func(arg string, sets ...scenarios.Set) (*scenarios.Scenario, error) { return cfg.load(arg, sets) }
	}
	s, err := load(arg, sets...)
	if err != nil {
		return nil, err
	}
	err = s.CheckBudget(maxEvents)
	var be *scenarios.BudgetError
	if errors.As(err, &be) {
		err = fmt.Errorf("%w; lift the budget with --max-events %d", err, SuggestedBudget(be.Estimate))
	}
	return s, err
}

// BuiltinCompletions are the built-in scenarios as a shell completes them:
// each name with its description.
func BuiltinCompletions() []string {
	var out []string
	for _, b := range scenarios.Builtins() {
		out = append(out, b.Name+"\t"+b.Description)
	}
	return out
}

// LaneCompletions complete the last name of toComplete, a comma-separated list
// of lanes: the lanes of the scenarios args names (their variants too), then
// every algorithm, each once.
func LaneCompletions(args []string, toComplete string) []string {
	done := ""
	if i := strings.LastIndex(toComplete, ","); i >= 0 {
		done = toComplete[:i+1]
	}
	var names []string
	for _, arg := range args {
		if s, err := Load(arg); err == nil && s.Config != nil {
			names = append(names, s.Config.LaneNames()...)
		}
	}
	var out []string
	for _, n := range append(names, sim.LaneNames()...) {
		if !slices.Contains(out, done+n) {
			out = append(out, done+n)
		}
	}
	return out
}
