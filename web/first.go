package web

import (
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

// LoadFirst is Options.First for rlsim serve arg: arg loaded with ov's sets
// and ov applied, as rlsim run would run it. A contention study, which has
// no lanes to watch, is an *run.InputError, as is every problem ov.Apply finds.
func LoadFirst(arg string, ov run.Overrides) (*scenarios.Scenario, error) {
	loaded, err := ov.Load([]string{arg})
	if err != nil {
		return nil, err
	}
	first := loaded[0]
	if first.Config == nil {
		return nil, run.BadInputf("%s: a contention study has no lanes to watch: rlsim run %s prints its results", first.File, arg)
	}
	if err := ov.Apply(loaded); err != nil {
		return nil, err
	}
	return first, nil
}
