package main

import "github.com/rlsim/rlsim/scenarios"

// lanesHelp is the --lanes flag's help for a command that verb-s the lanes
// ("run", "show"): the same choice in every command.
func lanesHelp(verb string) string {
	return "comma-separated lanes to " + verb + ", replacing the file's: its lanes by name (variants too) or algorithms (e.g. token_bucket,gcra)"
}

// scenarioArg is the scenario a live command (tui, serve) plays: its argument,
// or the default scenario; and a --max-events that is not positive is refused.
func scenarioArg(args []string, maxEvents int64) (string, error) {
	if maxEvents <= 0 {
		return "", badInputf("--max-events: must be positive, got %d", maxEvents)
	}
	if len(args) > 0 {
		return args[0], nil
	}
	return scenarios.DefaultName, nil
}
