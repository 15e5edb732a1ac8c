package main

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/report/output"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
)

type sweepOptions struct {
	Out      io.Writer
	Progress io.Writer // nil: no progress line
	Ctx      context.Context
	Err      io.Writer // warnings

	Arg       string
	Config    configFlags
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
      --find 'min limits[0].limit' --where 'class users success >= 99%' \
      --where 'class abuser admitted_rate <= 2/s'
  rlsim sweep boundary-burst --vary 'limits[0].limit=5,10,20' \
      --vary 'limits[0].burst=5,10,20' --out sweep-report
  rlsim sweep noisy-neighbour --vary 'limits[0].limit=10..60/10' --seeds 5 \
      --shard 0/3 > part-0.json`,
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeScenarioNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx, opts.Err = cmd.Context(), cmd.ErrOrStderr()
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
	formatFlag(f, &opts.Format, output.Default, output.Help(output.ForSweeps))
	f.StringVar(&opts.OutDir, "out", "", "write index.html, the PNG plots, sweep.json and sweep.csv to `DIR`")
	f.StringVar(&opts.Shard, "shard", "", "run share `i/n` of the points and print a partial result for rlsim sweep merge")
	f.IntVar(&opts.Jobs, "jobs", 0, "runs at once, at most 1024 (default: one per core)")
	f.BoolVar(&opts.Wide, "wide", false, "print every table column and each line whole, however wide the terminal")
	f.IntVar(&opts.Width, "width", opts.Width, "fit the table to `N` columns (default: the terminal's width; 0: full layout)")
	f.Int64Var(&opts.MaxEvents, "max-events", defaultMaxEvents, "the event budget of the whole sweep (points × seeds × events per run), checked before it runs")
	opts.Config.add(f)
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
	errs = append(errs, output.CheckSweep(opts.Format, opts.Find, opts.Where))
	if opts.Shard != "" {
		for _, name := range []string{"out", "find", "where", "format"} {
			if cmd.Flags().Changed(name) {
				errs = append(errs, badInputf("--%s: a --shard prints a partial result only; give --%s to rlsim sweep merge", name, name))
			}
		}
	}
	return errors.Join(errs...)
}

func sweepRun(opts *sweepOptions) error {
	cfg, err := opts.Config.load(opts.Err)
	if err != nil {
		return err
	}
	ov := run.Overrides{Seed: opts.Seed, Duration: opts.Duration, Lanes: opts.Lanes, Sets: opts.Sets, MaxEvents: opts.MaxEvents, Config: cfg}
	sw, err := sweep.FromFlags(opts.Arg, opts.Varies, opts.Seeds, opts.Shard, ov)
	if err != nil {
		return err
	}
	return output.Sweep(ctxOf(opts.Ctx), opts.Out, sw, output.SweepOptions{Format: opts.Format, Dir: opts.OutDir,
		Width: opts.Width, Find: opts.Find, Where: opts.Where, Jobs: opts.Jobs, Progress: opts.Progress})
}

func ctxOf(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}
