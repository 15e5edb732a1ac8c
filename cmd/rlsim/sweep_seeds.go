package main

import (
	"errors"
	"fmt"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/run"
)

// runSeeds is rlsim run --seeds N: each scenario a sweep of one point over N
// seeds, printed as the spread of every figure.
func runSeeds(opts *runOptions) error {
	var errs []error
	if opts.OutDir != "" {
		errs = append(errs, report.CheckDir(opts.OutDir))
	}
	var plans []*run.Plan
	for _, arg := range opts.Args {
		sw := run.Sweep{Arg: arg, Seeds: opts.Seeds, Overrides: opts.overrides()}
		p, err := sw.Plan()
		errs = append(errs, err)
		plans = append(plans, p)
	}
	if err := errors.Join(errs...); err != nil {
		return badInput(err)
	}
	var sweeps []report.Sweep
	for _, p := range plans {
		r, err := p.Run(ctxOf(opts.Ctx), run.RunOptions{Progress: progressOf(opts.Progress)})
		if opts.Progress != nil {
			fmt.Fprint(opts.Progress, "\r\x1b[K")
		}
		if err != nil {
			return err
		}
		sweeps = append(sweeps, report.NewSweep(r, nil))
	}
	return writeSweeps(opts.Out, opts.Format, opts.OutDir, sweeps)
}
