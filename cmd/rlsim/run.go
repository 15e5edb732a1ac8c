package main

import (
	"context"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/report/output"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// defaultMaxEvents is every --max-events default: a few seconds of simulation.
const defaultMaxEvents = run.DefaultMaxEvents

type runOptions struct {
	Out      io.Writer
	Progress io.Writer // nil: no progress line
	Ctx      context.Context

	Args      []string
	Format    string
	TracePath string
	OutDir    string
	Seed      *uint64
	Duration  time.Duration
	Lanes     string
	Sets      []string
	MaxEvents int64
	Config    configFlags
	config    *run.Config // Config imported
	OneLine   oneLine
	// Seeds above 1 runs each scenario with that many seeds and reports the spread.
	Seeds int
	// Width is the terminal's width for the table, 0 for the full layout.
	Width int
	Wide  bool

	// Simulate runs a limiter comparison; tests replace it.
	Simulate func(context.Context, sim.Config, sim.Options) (sim.Result, error)
}

// NewCmdRun builds "rlsim run". runF, when not nil, replaces the run itself (tests).
func NewCmdRun(out, progress io.Writer, runF func(*runOptions) error) *cobra.Command {
	opts := &runOptions{Out: out, Progress: progress, Simulate: sim.Run,
		Width: terminalWidth(out)}
	var seed uint64
	cmd := &cobra.Command{
		Use:   "run [FILE|NAME ...]",
		Short: "Simulate scenarios through every lane and compare",
		Long: `Run each scenario (a YAML file, or the name of a built-in one) through every
limiting lane on a virtual clock, then print a comparison table with lanes as
rows and a few findings in plain words. With no argument, run the "demo"
scenario. On a terminal the table fits its width (the width comes from the
kernel; nothing is asked of the terminal) and the findings wrap; --wide prints
every column, as output to a file or pipe always does.

An argument with a slash or ending in .yaml or .yml is a file; builtin:NAME is a
built-in. A bare NAME is a built-in, or a file when no built-in has that name; a
bare NAME that is both is refused: write ./NAME or builtin:NAME. A folder named
like a built-in does not hide it.

A scenario's checks (docs/scenarios.md) are printed as pass or FAIL with the
value measured, and rlsim run exits with status 1 when any fails: a gate for CI.
--set PATH=VALUE replaces one field of every scenario run, as if the file said
so. --seeds N runs each scenario with N seeds (its seed, then seed+1, ...) and
prints every figure as the mean ± the half-width of its 95% interval; its
findings claim only differences beyond that spread, and its checks read the
means.

The JSON output is versioned and documented in docs/output.md. --trace writes
every attempt as CSV (.csv) or JSON lines (.jsonl); it appears only when the run
completes.

--out DIR writes a report for a design review: DIR/index.html (one
self-contained page: verdicts, statistics, an interactive lanes timeline, plots,
the scenario and the command that reproduces it), the plots as PNG files and
results.json. The report appears whole or not at all and replaces an earlier
report in DIR at once. DIR must be new, empty, or hold an rlsim report (marked
by its .rlsim-report file) and nothing else: rlsim never deletes a file it did
not write. With --out, a relative --trace is a file name inside DIR (not
results.json) and an absolute one must lie outside DIR.`,
		Example: `  rlsim run
  rlsim run boundary-burst
  rlsim run my-api.yaml --seed 7 --lanes token_bucket,gcra
  rlsim run noisy-neighbour --set limits[0].limit=20 \
      --set clients[1].retry.kind=exponential
  rlsim run retry-storm-no-jitter retry-storm-full-jitter --format csv
  rlsim run noisy-neighbour --seeds 10
  rlsim run demo --format json --trace demo.jsonl
  rlsim run boundary-burst retry-storm-no-jitter --out report --trace trace.csv`,
		ValidArgsFunction: completeScenarioNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Ctx = cmd.Context()
			opts.Args = args
			if len(args) == 0 {
				opts.Args = []string{scenarios.DefaultName}
			}
			if cmd.Flags().Changed("seed") {
				opts.Seed = &seed
			}
			if cmd.Flags().Changed("duration") && opts.Duration <= 0 {
				return badInputf("--duration: must be positive, got %v", opts.Duration)
			}
			if opts.MaxEvents <= 0 {
				return badInputf("--max-events: must be positive, got %d", opts.MaxEvents)
			}
			cfg, err := opts.Config.load(cmd.ErrOrStderr())
			if err != nil {
				return err
			}
			opts.config = cfg
			if err := opts.oneLineScenario(args); err != nil || opts.OneLine.Print {
				return err
			}
			if opts.Width < 0 {
				return badInputf("--width: must be 0 or more, got %d", opts.Width)
			}
			if opts.Wide {
				opts.Width = 0
			}
			if err := output.CheckRun(opts.Format, opts.TracePath, opts.Seeds); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return runRun(opts)
		},
	}
	f := cmd.Flags()
	formatFlag(f, &opts.Format, output.Default, output.Help(output.ForRuns))
	f.StringVar(&opts.TracePath, "trace", "", "write every attempt to `FILE` (.csv or .jsonl; - is standard output, as JSON lines, with --out DIR for the results)")
	f.StringVar(&opts.OutDir, "out", "", "write the HTML report, PNG plots and results.json to `DIR`")
	f.Uint64Var(&seed, "seed", 0, "seed of every random stream, replacing the file's")
	f.DurationVar(&opts.Duration, "duration", 0, "how long new requests may start, replacing the file's")
	f.StringVar(&opts.Lanes, "lanes", "", lanesHelp("run"))
	f.StringArrayVar(&opts.Sets, "set", nil, "replace the scenario field at `PATH=VALUE` (the file's names, e.g. limits[0].limit=20); repeatable")
	f.IntVar(&opts.Seeds, "seeds", 1, "run each scenario with `N` seeds (seed, seed+1, ...) and print each figure as mean ± 95% interval")
	f.BoolVar(&opts.Wide, "wide", false, "print every table column and each finding on one line, however wide the terminal")
	f.IntVar(&opts.Width, "width", opts.Width, "fit the table to `N` columns (default: the terminal's width; 0: full layout)")
	f.Int64Var(&opts.MaxEvents, "max-events", defaultMaxEvents, "the event budget: refuse a scenario estimated to need more than `N` events, and stop a run that reaches N")
	opts.Config.add(f)
	f.StringArrayVar(&opts.OneLine.Limits, "limit", nil, "run without a file: a limit `SPEC` 'key=ip limit=100/1m burst=20 name=N endpoint=/login' (replay's syntax); repeatable")
	f.StringArrayVar(&opts.OneLine.Traffic, "traffic", nil, "run without a file: a client group `SPEC` '100 poisson 2/s retry=exponential' (count, arrival kind, rate, retry kind, NAME=VALUE fields); repeatable")
	f.BoolVar(&opts.OneLine.Print, "print-scenario", false, "print the scenario --limit and --traffic build, to save and edit, instead of running it")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(output.Completions(output.ForRuns), cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("lanes", completeLanes)
	_ = cmd.RegisterFlagCompletionFunc("trace", cobra.FixedCompletions([]string{"csv", "jsonl"}, cobra.ShellCompDirectiveFilterFileExt))
	_ = cmd.RegisterFlagCompletionFunc("out", cobra.FixedCompletions(nil, cobra.ShellCompDirectiveFilterDirs))
	return cmd
}

func runRun(opts *runOptions) error {
	if opts.Seeds > 1 {
		return output.Seeds(ctxOf(opts.Ctx), opts.Out, opts.Args, opts.Seeds, opts.overrides(),
			output.SweepOptions{Format: opts.Format, Dir: opts.OutDir, Width: opts.Width, Progress: opts.Progress})
	}
	return output.Run(ctxOf(opts.Ctx), opts.Out, opts.Args, opts.overrides(), output.RunOptions{Format: opts.Format,
		Width: opts.Width, Trace: opts.TracePath, Dir: opts.OutDir,
		Run:       run.Options{MaxEvents: opts.MaxEvents, Simulate: opts.Simulate},
		Progress:  output.ProgressLines(opts.Progress, time.Now),
		Reproduce: func(i int, r report.Run) string { return reproduce(opts, opts.Args[i], r) }})
}

// overrides are the flags that replace a scenario's own settings.
func (opts *runOptions) overrides() run.Overrides {
	return run.Overrides{Seed: opts.Seed, Duration: opts.Duration, Lanes: opts.Lanes, Sets: opts.Sets, MaxEvents: opts.MaxEvents, Config: opts.config}
}

// reproduce is the command line that runs arg again with the same settings.
func reproduce(opts *runOptions, arg string, o report.Run) string {
	if arg == run.CommandLineArg {
		return opts.OneLine.command(opts.overrides().Command("", o.Seed()))
	}
	return opts.overrides().Command(arg, o.Seed())
}

// oneLineScenario builds the scenario of --limit and --traffic, if given,
// and runs it in place of a file's, or prints it (--print-scenario).
func (opts *runOptions) oneLineScenario(args []string) error {
	o := &opts.OneLine
	switch {
	case !o.given() && o.Print:
		return badInputf("--print-scenario: prints the scenario --limit and --traffic build; give them")
	case !o.given():
		return nil
	case len(args) > 0:
		return badInputf("--limit, --traffic: build a scenario of their own; give them or a scenario %s, not both", run.ShellQuote(args[0]))
	}
	data, err := o.scenario()
	if err != nil {
		return err
	}
	run.SetCommandLine(data)
	sets, err := run.ParseSets(opts.Sets)
	if err != nil {
		return err
	}
	if _, err := run.Load(run.CommandLineArg, sets...); err != nil {
		return badInput(err) // as it will run: with the --sets
	}
	if o.Print {
		_, err := opts.Out.Write(data)
		return err
	}
	opts.Args = []string{run.CommandLineArg}
	return nil
}
