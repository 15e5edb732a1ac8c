package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/report/output"
	sweepreport "github.com/rlsim/rlsim/report/sweep"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
)

type sweepOptions struct {
	Out      io.Writer
	Progress io.Writer // nil: no progress line
	Ctx      context.Context

	Arg       string
	Varies    []string
	Seeds     int
	Seed      *uint64
	Duration  time.Duration
	Lanes     string
	Sets      []string
	MaxEvents int64
	Find      string
	Where     []string
	Format    string
	OutDir    string
	Shard     string
	Jobs      int
	// Width is the terminal's width for the table, 0 for the full layout.
	Width int
	Wide  bool
}

// NewCmdSweep builds "rlsim sweep" and its "merge". runF, when not nil, replaces
// the sweep itself (tests).
func NewCmdSweep(out, progress io.Writer, runF func(*sweepOptions) error) *cobra.Command {
	opts := &sweepOptions{Out: out, Progress: progress, Width: terminalWidth(out)}
	var seed uint64
	cmd := &cobra.Command{
		Use:   "sweep FILE|NAME --vary PATH=VALUES ...",
		Short: "Run a scenario over a grid of settings and seeds, and find the setting that meets your checks",
		Long: `Run one scenario at every point of a grid of settings, each point over --seeds
seeds (the scenario's seed, then seed+1, ...), on every local core, and print
each lane's outcome per client class at each point: every figure the mean over
the seeds ± the half-width of its 95% interval (Student's t). The table fits the
terminal as rlsim run's does (--wide: every column), and ends with the command
that reproduces the sweep.

--vary PATH=v1,v2,v3 or PATH=from..to/step (numbers or durations, both ends
included) varies one scenario field, named as --set names it; several --vary
make a grid, the last changing fastest. --find 'min PATH' (or max) with
--where '[lane LANE] [class CLASS] METRIC OP VALUE' picks, for each lane, the
point with the least PATH whose means meet every --where; METRIC is one of a
check's (success_rate or success, refused_rate, shed_rate, admitted_rate,
p99_time_to_success, peak_ratio).

The whole sweep (points × seeds × the events each point is estimated to need) is
checked against --max-events before anything runs. The output does not depend on
--jobs (at most 1024; never more at once than the sweep's runs). --out DIR
writes index.html (each point, each lane, per class), the plots as PNG and
sweep.json and sweep.csv, under the same rules as rlsim run --out.

--shard i/n runs only the points whose index leaves i when divided by n (n at
most 10000, the most points a sweep has), and prints a partial result (JSON,
sealed with checksums) instead; "rlsim sweep merge" verifies the partials of
every shard and combines them into the output the whole sweep prints
(docs/distributed.md).`,
		Example: `  rlsim sweep noisy-neighbour --vary 'limits[0].limit=10..60/10' --seeds 5
  rlsim sweep nat-per-user --vary 'limits[0].limit=2..10/2' --seeds 10 \
      --find 'min limits[0].limit' --where 'class users success >= 99%' --where 'class abuser admitted_rate <= 2/s'
  rlsim sweep boundary-burst --vary 'limits[0].limit=5,10,20' --vary 'limits[0].burst=5,10,20' --out sweep-report
  rlsim sweep noisy-neighbour --vary 'limits[0].limit=10..60/10' --seeds 5 --shard 0/3 > part-0.json`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeScenarioNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			opts.Arg = args[0]
			if cmd.Flags().Changed("seed") {
				opts.Seed = &seed
			}
			if err := opts.check(cmd); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return sweepRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&opts.Varies, "vary", nil, "vary the field at `PATH=VALUES`: v1,v2,v3 or from..to/step; repeatable (a grid)")
	f.IntVar(&opts.Seeds, "seeds", 1, "run each point with `N` seeds: the scenario's seed, seed+1, ...")
	f.Uint64Var(&seed, "seed", 0, "the first seed, replacing the file's")
	f.DurationVar(&opts.Duration, "duration", 0, "how long new requests may start, replacing the file's")
	f.StringVar(&opts.Lanes, "lanes", "", lanesHelp("run"))
	f.StringArrayVar(&opts.Sets, "set", nil, "replace the scenario field at `PATH=VALUE` at every point; repeatable")
	f.StringVar(&opts.Find, "find", "", "pick for each lane the point with the least (`GOAL` 'min PATH') or most ('max PATH') PATH that meets every --where")
	f.StringArrayVar(&opts.Where, "where", nil, "a `CONDITION` on the means over seeds: '[lane LANE] [class CLASS] METRIC OP VALUE'; repeatable")
	f.StringVarP(&opts.Format, "format", "f", output.Default, output.Help(output.ForSweeps))
	f.StringVar(&opts.OutDir, "out", "", "write index.html, the PNG plots, sweep.json and sweep.csv to `DIR`")
	f.StringVar(&opts.Shard, "shard", "", "run share `i/n` of the points and print a partial result for rlsim sweep merge")
	f.IntVar(&opts.Jobs, "jobs", 0, "runs at once, at most 1024 (default: one per core)")
	f.BoolVar(&opts.Wide, "wide", false, "print every table column and each line whole, however wide the terminal")
	f.IntVar(&opts.Width, "width", opts.Width, "fit the table to `N` columns (default: the terminal's width; 0: full layout)")
	f.Int64Var(&opts.MaxEvents, "max-events", defaultMaxEvents, "the event budget of the whole sweep (points × seeds × events per run), checked before it runs")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(output.Completions(output.ForSweeps), cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("lanes", completeLanes)
	_ = cmd.RegisterFlagCompletionFunc("out", cobra.FixedCompletions(nil, cobra.ShellCompDirectiveFilterDirs))
	cmd.AddCommand(NewCmdSweepMerge(out, nil))
	return cmd
}

// check refuses bad flags, all at once, each named.
func (opts *sweepOptions) check(cmd *cobra.Command) error {
	var errs []error
	if cmd.Flags().Changed("duration") && opts.Duration <= 0 {
		errs = append(errs, badInputf("--duration: must be positive, got %v", opts.Duration))
	}
	if opts.MaxEvents <= 0 {
		errs = append(errs, badInputf("--max-events: must be positive, got %d", opts.MaxEvents))
	}
	if opts.Width < 0 {
		errs = append(errs, badInputf("--width: must be 0 or more, got %d", opts.Width))
	}
	if opts.Wide {
		opts.Width = 0
	}
	if opts.Jobs < 0 || opts.Jobs > sweep.MaxJobs {
		errs = append(errs, badInputf("--jobs: must be 0 (one per core) to %d, got %d", sweep.MaxJobs, opts.Jobs))
	}
	errs = append(errs, checkFormat(opts.Format), checkObjectiveFlags(opts.Find, opts.Where))
	if opts.Shard != "" {
		for _, name := range []string{"out", "find", "where", "format"} {
			if cmd.Flags().Changed(name) {
				errs = append(errs, badInputf("--%s: a --shard prints a partial result only; give --%s to rlsim sweep merge", name, name))
			}
		}
	}
	return errors.Join(errs...)
}

func checkFormat(format string) error {
	_, err := output.Named(output.ForSweeps, format)
	return err
}

func checkObjectiveFlags(find string, where []string) error {
	if find == "" && len(where) > 0 {
		return badInputf("--where: needs --find 'min PATH' (or max) to say what to pick")
	}
	return nil
}

func (opts *sweepOptions) sweep() (sweep.Sweep, error) {
	sw := sweep.Sweep{Arg: opts.Arg, Seeds: opts.Seeds,
		Overrides: run.Overrides{Seed: opts.Seed, Duration: opts.Duration, Lanes: opts.Lanes, Sets: opts.Sets, MaxEvents: opts.MaxEvents}}
	var errs []error
	for _, v := range opts.Varies {
		vary, err := sweep.ParseVary(v)
		errs = append(errs, err)
		sw.Varies = append(sw.Varies, vary)
	}
	if len(opts.Varies) == 0 {
		errs = append(errs, errors.New("--vary: give at least one, e.g. --vary 'limits[0].limit=10..50/10' (rlsim run --seeds runs one point over several seeds)"))
	}
	if opts.Shard != "" {
		sh, err := sweep.ParseShard(opts.Shard)
		errs = append(errs, err)
		sw.Shard = sh
	}
	return sw, badInput(errors.Join(errs...))
}

func sweepRun(opts *sweepOptions) error {
	sw, err := opts.sweep()
	if err != nil {
		return err
	}
	var outErr error
	if opts.OutDir != "" {
		outErr = report.CheckDir(opts.OutDir)
	}
	plan, err := sw.Plan()
	if err := errors.Join(err, outErr); err != nil {
		return err
	}
	var obj *sweep.Objective
	if opts.Find != "" {
		if obj, err = parseObjective(opts.Find, opts.Where, plan.Varies, plan.LaneNames, plan.ClassNames); err != nil {
			return err
		}
	}
	r, err := plan.Run(ctxOf(opts.Ctx), sweep.RunOptions{Jobs: opts.Jobs, Progress: progressOf(opts.Progress)})
	if opts.Progress != nil {
		fmt.Fprint(opts.Progress, "\r\x1b[K")
	}
	if err != nil {
		return err
	}
	if sw.Shard.Count > 0 {
		var buf bytes.Buffer
		if err := sweep.WritePartial(&buf, r); err != nil {
			return err
		}
		_, err := opts.Out.Write(buf.Bytes())
		return err
	}
	s := sweepreport.New(r, obj)
	s.Command = sweepCommand(opts.Arg, r, opts.Find, opts.Where)
	return output.Sweeps(opts.Out, opts.Format, opts.OutDir, opts.Width, []sweepreport.Report{s})
}

// sweepCommand is the command line that runs the sweep r of arg again from
// its first seed, finding what find and where found. It is written from r's
// header, so that a merge of shards prints the line the whole sweep prints;
// output choices (--format, --out, --jobs, --max-events) are left out.
func sweepCommand(arg string, r *sweep.Result, find string, where []string) string {
	parts := []string{"rlsim", "sweep", shellQuote(arg)}
	for _, v := range r.Varies {
		parts = append(parts, "--vary", shellQuote(v.Path+"="+strings.Join(v.Values, ",")))
	}
	parts = append(parts, "--seeds", fmt.Sprint(r.Seeds), "--seed", fmt.Sprint(r.Seed))
	if r.Duration != "" {
		parts = append(parts, "--duration", r.Duration)
	}
	if r.Lanes != "" {
		parts = append(parts, "--lanes", shellQuote(r.Lanes))
	}
	for _, set := range r.Sets {
		parts = append(parts, "--set", shellQuote(set))
	}
	if find != "" {
		parts = append(parts, "--find", shellQuote(find))
	}
	for _, w := range where {
		parts = append(parts, "--where", shellQuote(w))
	}
	return strings.Join(parts, " ")
}

// parseObjective reads --find and --where against the sweep's varies, lanes
// and classes, reporting every problem at once.
func parseObjective(find string, where []string, varies []sweep.Vary, lanes, classes []string) (*sweep.Objective, error) {
	f, err := sweep.ParseFind(find, varies)
	errs := []error{err}
	obj := &sweep.Objective{Find: f}
	for _, w := range where {
		wh, err := sweep.ParseWhere(w, lanes, classes)
		errs = append(errs, err)
		obj.Where = append(obj.Where, wh)
	}
	return obj, badInput(errors.Join(errs...))
}

func ctxOf(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// progressOf redraws "N of M runs" on a terminal; nil without one.
func progressOf(w io.Writer) func(done, total int) {
	if w == nil {
		return nil
	}
	return func(done, total int) {
		fmt.Fprintf(w, "\r\x1b[Ksweep: %d of %d runs", done, total)
	}
}
