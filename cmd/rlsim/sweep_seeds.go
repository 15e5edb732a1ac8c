package main

import (
	"errors"
	"fmt"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/report/output"
	sweepreport "github.com/rlsim/rlsim/report/sweep"
	"github.com/rlsim/rlsim/run/sweep"
)

// runSeeds is rlsim run --seeds N: each scenario a sweep of one point over N
// seeds, printed as the spread of every figure.
func runSeeds(opts *runOptions) error {
	var errs []error
	if opts.OutDir != "" {
		errs = append(errs, report.CheckDir(opts.OutDir))
	}
	var plans []*sweep.Plan
	for _, arg := range opts.Args {
		sw := sweep.Sweep{Arg: arg, Seeds: opts.Seeds, Overrides: opts.overrides()}
		p, err := sw.Plan()
		errs = append(errs, err)
		plans = append(plans, p)
	}
	if err := errors.Join(errs...); err != nil {
		return badInput(err)
	}
	var sweeps []sweepreport.Report
	failed, all := 0, 0
	for i, p := range plans {
		r, err := p.Run(ctxOf(opts.Ctx), sweep.RunOptions{Progress: progressOf(opts.Progress)})
		if opts.Progress != nil {
			fmt.Fprint(opts.Progress, "\r\x1b[K")
		}
		if err != nil {
			return err
		}
		s := sweepreport.New(r, nil)
		s.Checks = sweep.SpreadChecks(p.Checks, r.Points[0])
		s.Command = reproduceSeed(opts, opts.Args[i], r.Seed) + fmt.Sprintf(" --seeds %d", opts.Seeds)
		failed += sweep.SpreadFailed(s.Checks)
		all += len(s.Checks)
		sweeps = append(sweeps, s)
	}
	if err := output.Sweeps(opts.Out, opts.Format, opts.OutDir, opts.Width, sweeps); err != nil {
		return err
	}
	if failed > 0 {
		return fmt.Errorf("rlsim: %d of %d checks failed on the means over %d seeds", failed, all, opts.Seeds)
	}
	return nil
}
