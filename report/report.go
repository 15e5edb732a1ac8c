// Package report renders what a run measured: the comparison table and findings
// in plain words, the versioned JSON and CSV, PNG plots drawn with gonum/plot, and
// one self-contained HTML page for a design review, alone or in an output
// directory with the plots and the data (Dir).
//
// Nothing here prints or touches the process: every writer takes an io.Writer.
// A Timeline, passed to sim as its trace sink, collects the per-request ticks the
// lanes timeline draws, in bounded memory.
//
// The figures' house look (colours, legend, plot style) is package
// report/chart and the terminal tables' layout report/textlayout, which the
// sweep's report, report/sweep, shares with this one.
package report

import (
	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// Run is one scenario's outcome: exactly one of Result and Contention is set.
// Timeline, when not nil, holds the ticks collected while Result was simulated.
type Run struct {
	Scenario   *scenarios.Scenario
	Result     *sim.Result
	Contention *contention.Result
	Timeline   *Timeline
	Checks     []run.CheckResult // the scenario's checks as measured
}

// NewRun is the Run of a pipeline's outcome, with the ticks collected while it
// ran (nil: none).
func NewRun(o run.Outcome, tl *Timeline) Run {
	return Run{Scenario: o.Scenario, Result: o.Result, Contention: o.Contention, Timeline: tl, Checks: o.Checks}
}
