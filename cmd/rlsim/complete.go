package main

import (
	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/run"
)

// completeScenarioNames offers the built-in names and lets the shell add files.
func completeScenarioNames(_ *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
	return run.BuiltinCompletions(), cobra.ShellCompDirectiveDefault
}

func completeBuiltinNames(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return run.BuiltinCompletions(), cobra.ShellCompDirectiveNoFileComp
}

// completeLanes completes the last name of a comma-separated list of lanes.
func completeLanes(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return run.LaneCompletions(args, toComplete), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
}
