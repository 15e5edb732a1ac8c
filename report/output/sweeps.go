package output

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rlsim/rlsim/report"
	sweepreport "github.com/rlsim/rlsim/report/sweep"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
)

// SweepOptions are how a sweep runs and how what it gave is written.
type SweepOptions struct {
	Format string
	Dir    string   // the report folder, "" for none
	Width  int      // the table's width in columns, 0 for the full layout
	Find   string   // --find, "" for no objective
	Where  []string // --where, read with Find
	Jobs   int      // runs at once, 0: one per core
	// Progress, when not nil, receives a line "sweep: N of M runs", redrawn
	// as the runs finish and cleared at the end.
	Progress io.Writer
}

// Sweep runs sw and writes what it gave to out: a shard's partial result
// (sweep.WritePartial) or, for the whole sweep, its report in o.Format with
// the objective and, with o.Dir, the report folder. A bad objective or report
// folder is refused before anything runs.
func Sweep(ctx context.Context, out io.Writer, sw sweep.Sweep, o SweepOptions) error {
	var outErr error
	if o.Dir != "" {
		outErr = report.CheckDir(o.Dir)
	}
	plan, err := sw.Plan()
	if err := errors.Join(err, outErr); err != nil {
		return err
	}
	var obj *sweep.Objective
	if o.Find != "" {
		if obj, err = sweep.ParseObjective(o.Find, o.Where, plan.Varies, plan.LaneNames, plan.ClassNames); err != nil {
			return err
		}
	}
	r, err := runPlan(ctx, plan, o)
	if err != nil {
		return err
	}
	if sw.Shard.Count > 0 {
		var buf bytes.Buffer
		if err := sweep.WritePartial(&buf, r); err != nil {
			return err
		}
		_, err := out.Write(buf.Bytes())
		return err
	}
	s := sweepreport.New(r, obj)
	s.Command = r.Command(sw.Arg, o.Find, o.Where)
	return Sweeps(out, o.Format, o.Dir, o.Width, []sweepreport.Report{s})
}

// Merge verifies the partial results in files and combines them (see
// sweep.MergePartials), then writes what the whole sweep writes.
func Merge(out io.Writer, files []string, o SweepOptions) error {
	var outErr error
	if o.Dir != "" {
		outErr = report.CheckDir(o.Dir)
	}
	r, err := sweep.MergePartials(files)
	if err := errors.Join(err, outErr); err != nil {
		return err
	}
	var obj *sweep.Objective
	if o.Find != "" {
		lanes, classes := r.Names()
		if obj, err = sweep.ParseObjective(o.Find, o.Where, r.Varies, lanes, classes); err != nil {
			return err
		}
	}
	s := sweepreport.New(r, obj)
	// The partials know the scenario by name: a built-in's name runs it again.
	arg := r.Arg
	if arg == "" {
		arg = r.Scenario
	}
	s.Command = r.Command(arg, o.Find, o.Where)
	return Sweeps(out, o.Format, o.Dir, o.Width, []sweepreport.Report{s})
}

// Seeds is rlsim run --seeds: each of args, with ov, a sweep of one point
// over seeds seeds, written as the spread of every figure. Its error, when
// every run was written, is that of the checks that failed on the means.
func Seeds(ctx context.Context, out io.Writer, args []string, seeds int, ov run.Overrides, o SweepOptions) error {
	var errs []error
	if o.Dir != "" {
		errs = append(errs, report.CheckDir(o.Dir))
	}
	var plans []*sweep.Plan
	for _, arg := range args {
		sw := sweep.Sweep{Arg: arg, Seeds: seeds, Overrides: ov}
		p, err := sw.Plan()
		errs = append(errs, err)
		plans = append(plans, p)
	}
	if err := errors.Join(errs...); err != nil {
		return run.BadInput(err)
	}
	var sweeps []sweepreport.Report
	failed, all := 0, 0
	for i, p := range plans {
		r, err := runPlan(ctx, p, o)
		if err != nil {
			return err
		}
		s := sweepreport.New(r, nil)
		s.Checks = sweep.SpreadChecks(p.Checks, r.Points[0])
		s.Command = ov.Command(args[i], r.Seed) + fmt.Sprintf(" --seeds %d", seeds)
		failed += sweep.SpreadFailed(s.Checks)
		all += len(s.Checks)
		sweeps = append(sweeps, s)
	}
	if err := Sweeps(out, o.Format, o.Dir, o.Width, sweeps); err != nil {
		return err
	}
	if failed > 0 {
		return run.CheckFailed(fmt.Errorf("rlsim: %d of %d checks failed on the means over %d seeds", failed, all, seeds))
	}
	return nil
}

// runPlan runs p with o.Jobs, drawing o.Progress's line and clearing it after.
func runPlan(ctx context.Context, p *sweep.Plan, o SweepOptions) (*sweep.Result, error) {
	ro := sweep.RunOptions{Jobs: o.Jobs}
	if o.Progress != nil {
		ro.Progress = func(done, total int) { fmt.Fprintf(o.Progress, "\r\x1b[Ksweep: %d of %d runs", done, total) }
		defer fmt.Fprint(o.Progress, "\r\x1b[K")
	}
	return p.Run(ctx, ro)
}
