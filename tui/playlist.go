package tui

import (
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

// Playlist is what rlsim tui arg plays: arg loaded with ov's sets, then the
// other built-in comparisons after it (run.Playlist), each with ov applied. A
// scenario that does not load is an *run.InputError.
func Playlist(arg string, ov run.Overrides) ([]Scenario, error) {
	loaded, err := ov.Load([]string{arg})
	if err != nil {
		return nil, run.BadInput(err)
	}
	all, err := run.Playlist(loaded[0], ov)
	return ScenariosOf(all), err
}

// ScenariosOf are the limiter comparisons of list as the view plays them, in
// order; each must have a Config (run.Playlist keeps only those).
func ScenariosOf(list []*scenarios.Scenario) []Scenario {
	out := make([]Scenario, 0, len(list))
	for _, s := range list {
		out = append(out, Scenario{Name: s.Name, Description: s.Description, Config: *s.Config})
	}
	return out
}
