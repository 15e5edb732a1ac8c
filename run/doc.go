// Package run runs a scenario end to end, the one way that rlsim run, rlsim
// serve's playground (package web), conform and the sweeps share: load scenario
// files and built-ins by name (Load, LoadAll, Playlist), apply the command
// line's overrides once (Overrides), check the event budget before any work,
// simulate with progress and trace sinks (Scenario), check the scenario's
// checks on the result (Checks), measure the figures a run over seeds compares
// (Figures, Measure), and stream the per-attempt trace to a file that appears
// only when the run completes (TraceFile).
//
// Nothing here prints or exits: errors the user can fix by changing the input
// are returned as *InputError, which a command maps to exit status 2.
//
// Dependencies: run imports sim, contention and scenarios; run/sweep, report,
// web, conform and cmd/rlsim import it (cmd/rlsim builds the tui's playlist
// with it). Sweeps, and runs over several seeds, are package run/sweep.
package run
