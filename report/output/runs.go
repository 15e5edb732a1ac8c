package output

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// RunOptions are how Runs runs scenarios and writes what they gave.
type RunOptions struct {
	Format string
	Width  int    // the table's width in columns, 0 for the full layout
	Trace  string // the trace file's path (report.TracePath), "" for none
	Dir    string // the report folder, "" for none
	// Run holds MaxEvents and Simulate; Trace, Collect and Progress are set here.
	Run run.Options
	// Progress, when not nil, is asked for each scenario (its name escaped) for
	// a function told of the run's advance and one that clears its line.
	Progress func(name string) (update func(sim.Progress), clear func())
	// Reproduce is the command line that runs list[i], which gave r, again.
	Reproduce func(i int, r report.Run) string
}

// Run loads args with ov's sets, applies ov and runs them as Runs does. It
// refuses first, all at once, an argument that does not load and an output
// path that would lose a file (CheckPaths). When every run was written, its
// error is ChecksFailed's.
func Run(ctx context.Context, out io.Writer, args []string, ov run.Overrides, o RunOptions) error {
	list, err := ov.Load(args)
	if err := errors.Join(err, CheckPaths(o.Dir, o.Trace)); err != nil {
		return err
	}
	if err := ov.Apply(list); err != nil {
		return err
	}
	runs, err := Runs(ctx, out, list, o)
	if err != nil {
		return err
	}
	return ChecksFailed(runs)
}

// Runs runs list, whose overrides are applied, one after another, and writes
// the results in o.Format to out, with the trace and the report folder when
// asked for. Either everything is written or nothing: the trace and the
// report are committed only once every scenario ran and the output rendered.
func Runs(ctx context.Context, out io.Writer, list []*scenarios.Scenario, o RunOptions) ([]report.Run, error) {
	f, err := Named(ForRuns, o.Format)
	if err != nil {
		return nil, err
	}
	if f.Check != nil {
		if err := f.Check(list); err != nil {
			return nil, err
		}
	}
	var dir *report.Dir
	if o.Dir != "" {
		if dir, err = report.CreateDir(o.Dir); err != nil {
			return nil, err
		}
		defer dir.Abort() // after Commit, a no-op
	}
	var trace *run.TraceFile
	switch {
	case o.Trace == run.StdoutTrace:
		trace, err = run.CreateTraceTo(out)
	case o.Trace != "":
		trace, err = run.CreateTrace(report.TracePath(o.Trace, dir))
	}
	if err != nil {
		return nil, err
	}
	if trace != nil {
		defer trace.Abort() // after Commit, a no-op
	}
	var runs []report.Run
	for _, s := range list {
		r, err := runOne(ctx, s, o, trace, dir != nil)
		if err != nil {
			return nil, err
		}
		runs = append(runs, r)
	}
	var buf bytes.Buffer
	if err := f.Runs(&buf, runs, o.Width); err != nil {
		return nil, err
	}
	if trace != nil && o.Trace != run.StdoutTrace {
		if err := trace.Commit(); err != nil {
			return nil, err
		}
	}
	if dir != nil {
		var lines []string
		for i, r := range runs {
			lines = append(lines, o.Reproduce(i, r))
		}
		if err := report.WriteDir(dir, runs, lines); err != nil {
			return nil, err
		}
		if err := dir.Commit(); err != nil {
			return nil, err
		}
	}
	if o.Trace == run.StdoutTrace { // standard output carries the trace alone
		return runs, trace.Commit()
	}
	if _, err := out.Write(buf.Bytes()); err != nil {
		return nil, err
	}
	return runs, nil
}

// runOne runs one scenario; with timeline, it collects the ticks a report draws.
func runOne(ctx context.Context, s *scenarios.Scenario, o RunOptions, trace *run.TraceFile, timeline bool) (report.Run, error) {
	ro := o.Run
	ro.Trace = trace
	var tl *report.Timeline
	if timeline {
		ro.Collect = func(c sim.Config) sim.TraceSink {
			tl = report.NewTimeline(c)
			return tl
		}
	}
	if o.Progress != nil {
		update, clear := o.Progress(scenarios.Escape(s.Name))
		ro.Progress = update
		defer clear()
	}
	r, err := run.Scenario(ctx, s, ro)
	return report.NewRun(r, tl), err
}

// CheckPaths refuses, all at once and before a run, a report folder dir and a
// trace path that would lose a file: a folder holding what rlsim did not
// write, a trace the report would overwrite or delete. Either may be "".
func CheckPaths(dir, trace string) error {
	var errs []error
	if dir != "" {
		errs = append(errs, report.CheckDir(dir))
	}
	switch {
	case trace == run.StdoutTrace && dir == "":
		errs = append(errs, run.BadInputf("--trace -: the trace then takes standard output, so the results need --out DIR"))
	case trace != "" && trace != run.StdoutTrace:
		_, err := run.TraceIsJSONL(trace)
		errs = append(errs, err, report.CheckTrace(trace, dir))
	}
	return errors.Join(errs...)
}

// ChecksFailed is the error, exit status 1, of runs whose scenarios' checks
// did not all pass; the output lists each.
func ChecksFailed(runs []report.Run) error {
	failed, all := 0, 0
	for _, r := range runs {
		failed += run.Failed(r.Checks)
		all += len(r.Checks)
	}
	if failed == 0 {
		return nil
	}
	return run.CheckFailed(fmt.Errorf("rlsim: %d of %d checks failed", failed, all))
}
