package run

import (
	"bytes"
	"errors"
	"slices"

	"github.com/rlsim/rlsim/scenarios"
)

// Playlist is first, then the other built-in limiter comparisons in their
// listed order starting after first, so that moving to the next scenario moves
// on from the one asked for, each with ov applied: its sets are written into
// every built-in, as into first (loaded with them by ov.Load). Only first is
// checked against the budget: the others are a choice the viewer makes later.
// Scenarios without lanes to watch (a contention study) are left out, and so
// are built-ins that ov's sets do not fit (a limit or client they lack); first
// must have lanes.
func Playlist(first *scenarios.Scenario, ov Overrides) ([]*scenarios.Scenario, error) {
	if err := kindOf(first).unwatchable(); err != nil {
		return nil, err
	}
	lanes, err := ov.lanes()
	if err != nil {
		return nil, err
	}
	sets, err := ParseSets(ov.Sets)
	if err != nil {
		return nil, err
	}
	all := withBuiltins(first, sets)
	var list []*scenarios.Scenario
	var errs []error
	for _, s := range all {
		k := kindOf(s)
		if k.unwatchable() != nil {
			continue
		}
		if _, err := k.override(ov, lanes); err != nil {
			errs = append(errs, err)
			continue
		}
		if s == first {
			if err := ov.overBudget(s); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		list = append(list, s)
	}
	if len(errs) > 0 {
		return nil, BadInput(errors.Join(errs...))
	}
	return list, nil
}

// withBuiltins is first followed by every other built-in, round the list, with
// sets written into each; a built-in they do not fit is left out.
func withBuiltins(first *scenarios.Scenario, sets []scenarios.Set) []*scenarios.Scenario {
	all := []*scenarios.Scenario{first}
	names := scenarios.BuiltinNames()
	src, _ := scenarios.BuiltinSource(first.Name)
	builtin := bytes.Equal(src, first.Source)
	start := 0
	if builtin {
		start = slices.Index(names, first.Name) + 1
	}
	for i := range names {
		name := names[(start+i)%len(names)]
		if builtin && name == first.Name {
			continue
		}
		if s, err := scenarios.LoadBuiltin(name, sets...); err == nil {
			all = append(all, s)
		}
	}
	return all
}
