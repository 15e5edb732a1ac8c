package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// completeScenarioNames offers the built-in names and lets the shell add files.
func completeScenarioNames(_ *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
	return builtinCompletions(), cobra.ShellCompDirectiveDefault
}

func completeBuiltinNames(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return builtinCompletions(), cobra.ShellCompDirectiveNoFileComp
}

func builtinCompletions() []string {
	var out []string
	for _, b := range scenarios.Builtins() {
		out = append(out, b.Name+"\t"+b.Description)
	}
	return out
}

// completeLanes completes the last name of a comma-separated list of lanes:
// the lanes of the scenarios named so far (their variants too), then every
// algorithm.
func completeLanes(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	done := ""
	if i := strings.LastIndex(toComplete, ","); i >= 0 {
		done = toComplete[:i+1]
	}
	var names []string
	for _, arg := range args {
		if s, err := run.Load(arg); err == nil && s.Config != nil {
			names = append(names, s.Config.LaneNames()...)
		}
	}
	var out []string
	for _, n := range append(names, sim.LaneNames()...) {
		if !slices.Contains(out, done+n) {
			out = append(out, done+n)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
