package tui

import "github.com/rlsim/rlsim/scenarios"

// ScenariosOf are the limiter comparisons of list as the view plays them, in
// order; each must have a Config (run.Playlist keeps only those).
func ScenariosOf(list []*scenarios.Scenario) []Scenario {
	out := make([]Scenario, 0, len(list))
	for _, s := range list {
		out = append(out, Scenario{Name: s.Name, Description: s.Description, Config: *s.Config})
	}
	return out
}
