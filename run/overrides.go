package run

import (
	"errors"
	"strings"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// Overrides are the settings a command line replaces in every scenario it runs,
// the same for rlsim run and rlsim tui. The zero value replaces nothing.
type Overrides struct {
	Seed     *uint64       // nil: each file's own seed
	Duration time.Duration // how long new requests may start; 0: the file's
	Lanes    string        // comma-separated lane names; "": the file's
	// Sets are --set flags, each path=value, written into every file loaded
	// through Load before it is decoded, so each passes every check a written
	// value does and a problem names its flag.
	Sets []string
	// MaxEvents is the event budget: a scenario estimated to need more is refused
	// before it runs. 0 or less checks nothing.
	MaxEvents int64
	// Config, when not nil, is a product's config whose limits, lanes and
	// chain replace each scenario's own (--config).
	Config *Config
}

// Apply replaces the overridden settings in every scenario of list, validates
// the result and checks the budget, reporting every problem at once as an
// *InputError whose lines name the file and the flag.
func (ov Overrides) Apply(list []*scenarios.Scenario) error {
	if err := ov.duration(); err != nil {
		return err
	}
	lanes, err := ov.lanes()
	if err != nil {
		return err
	}
	var errs []error
	for _, s := range list {
		valid, err := kindOf(s).override(ov, lanes)
		errs = append(errs, err)
		if valid {
			errs = append(errs, ov.overBudget(s))
		}
	}
	return BadInput(errors.Join(errs...))
}

// Load loads every argument (see LoadAll) with ov's sets written into it.
func (ov Overrides) Load(args []string) ([]*scenarios.Scenario, error) {
	sets, err := ParseSets(ov.Sets)
	if err != nil {
		return nil, err
	}
	if ov.Config == nil {
		return LoadAll(args, sets...)
	}
	var list []*scenarios.Scenario
	var errs []error
	for _, arg := range args {
		s, err := ov.Config.load(arg, sets)
		errs = append(errs, err)
		if err == nil {
			list = append(list, s)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, BadInput(err)
	}
	return list, nil
}

// duration refuses, naming the flag, a duration no scenario may state.
func (ov Overrides) duration() error {
	switch {
	case ov.Duration < 0:
		return BadInputf("--duration: must be positive, got %v", ov.Duration)
	case ov.Duration > sim.MaxTime:
		return BadInputf("--duration: %v is more than 100 years (%s), the longest a scenario may state",
			ov.Duration, strings.TrimSuffix(sim.MaxTime.String(), "0m0s"))
	}
	return nil
}

func (ov Overrides) lanes() ([]string, error) {
	if ov.Lanes == "" {
		return nil, nil
	}
	lanes, err := scenarios.ParseLanes(ov.Lanes)
	if err != nil {
		return nil, BadInputf("--lanes: %v", err)
	}
	return lanes, nil
}

// overBudget refuses s, before it runs, when it is estimated to need more than
// the budget's events.
func (ov Overrides) overBudget(s *scenarios.Scenario) error {
	if ov.MaxEvents <= 0 {
		return nil
	}
	err := s.CheckBudget(ov.MaxEvents)
	var be *scenarios.BudgetError
	if !errors.As(err, &be) {
		return err
	}
	return BadInputf("%v; shorten the scenario or lift the budget with --max-events %d", err, SuggestedBudget(be.Estimate))
}

// SuggestedBudget is an event budget worth suggesting for a run estimated to
// need n events: n rounded up to two significant digits.
func SuggestedBudget(n int64) int64 {
	p := int64(1)
	for n/p >= 100 {
		p *= 10
	}
	return (n + p - 1) / p * p
}
