package replay

import (
	"slices"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// TestStateNamesAreWhatStateAccepts: the names --state's error lists are
// exactly the values it accepts, tried over every state sim names, the
// divided placement and near misses.
func TestStateNamesAreWhatStateAccepts(t *testing.T) {
	candidates := append(sim.StateNames(), "divided", "Local", "whole", "full", "")
	var accepted []string
	for _, name := range candidates {
		if name == "" {
			continue
		}
		var ro Options
		errs := Flags{Replicas: 3, State: name}.fleet(&ro)
		refused := slices.ContainsFunc(errs, func(err error) bool { return strings.HasPrefix(err.Error(), "--state: unknown") })
		if !refused {
			accepted = append(accepted, name)
		}
	}
	slices.Sort(accepted)
	listed := slices.Sorted(slices.Values(StateNames))
	if !slices.Equal(accepted, listed) {
		t.Errorf("--state accepts %v, its error lists %v", accepted, listed)
	}
}
