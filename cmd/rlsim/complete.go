package main

import (
	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
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

// completeLanes completes the last name of a comma-separated list of lanes.
func completeLanes(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return run.LaneCompletions(args, toComplete), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
