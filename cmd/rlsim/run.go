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
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// defaultMaxEvents is the event budget above which a run is refused unless
// --max-events lifts it: a few seconds of simulation.
const defaultMaxEvents = 50_000_000

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
limiting lane on a virtual clock, then print a comparison table with lanes as rows
and a few findings in plain words. With no argument, run the "demo" scenario.
On a terminal the table fits its width (the width comes from the kernel; nothing
is asked of the terminal) and the findings wrap; --wide prints every column, as
output to a file or pipe always does.

An argument with a slash or ending in .yaml or .yml is a file; builtin:NAME is a
built-in. A bare NAME is a built-in, or a file when no built-in has that name; a
bare NAME that is both is refused: write ./NAME or builtin:NAME. A folder named
like a built-in does not hide it.

A scenario's checks (docs/scenarios.md) are printed as pass or FAIL with the value
measured, and rlsim run exits with status 1 when any fails: a gate for CI.
--set PATH=VALUE replaces one field of every scenario run, as if the file said so.
--seeds N runs each scenario with N seeds (its seed, then seed+1, ...) and prints
every figure as the mean ± the half-width of its 95% interval; its findings claim
only differences beyond that spread, and its checks read the means.

The JSON output is versioned and documented in docs/output.md. --trace writes every
attempt as CSV (.csv) or JSON lines (.jsonl); it appears only when the run completes.

--out DIR writes a report for a design review: DIR/index.html (one self-contained
page: verdicts, statistics, an interactive lanes timeline, plots, the scenario and
the command that reproduces it), the plots as PNG files and results.json. The
report appears whole or not at all and replaces an earlier report in DIR at once.
DIR must be new, empty, or hold an rlsim report (marked by its .rlsim-report
file) and nothing else: rlsim never deletes a file it did not write. With --out,
a relative --trace is a file name inside DIR (not results.json) and an absolute
one must lie outside DIR.`,
		Example: `  rlsim run
  rlsim run boundary-burst
  rlsim run my-api.yaml --seed 7 --lanes token_bucket,gcra
  rlsim run noisy-neighbour --set limits[0].limit=20 --set clients[1].retry.kind=exponential
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
			if opts.Width < 0 {
				return badInputf("--width: must be 0 or more, got %d", opts.Width)
			}
			if opts.Wide {
				opts.Width = 0
			}
			if opts.Seeds < 1 || opts.Seeds > sweep.MaxSeeds {
				return badInputf("--seeds: want 1 to %d, got %d", sweep.MaxSeeds, opts.Seeds)
			}
			if opts.Seeds > 1 && opts.TracePath != "" {
				return badInputf("--trace: traces one run; --seeds %d makes %d of each scenario", opts.Seeds, opts.Seeds)
			}
			switch opts.Format {
			case "table", "json", "csv":
			default:
				return badInputf("--format: unknown value %q (want table, json, csv)", opts.Format)
			}
			if runF != nil {
				return runF(opts)
			}
			return runRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Format, "format", "f", "table", "output format: table, json or csv")
	f.StringVar(&opts.TracePath, "trace", "", "write every attempt to `FILE` (.csv or .jsonl)")
	f.StringVar(&opts.OutDir, "out", "", "write the HTML report, PNG plots and results.json to `DIR`")
	f.Uint64Var(&seed, "seed", 0, "seed of every random stream, replacing the file's")
	f.DurationVar(&opts.Duration, "duration", 0, "how long new requests may start, replacing the file's")
	f.StringVar(&opts.Lanes, "lanes", "", lanesHelp("run"))
	f.StringArrayVar(&opts.Sets, "set", nil, "replace the scenario field at `PATH=VALUE` (the file's names, e.g. limits[0].limit=20); repeatable")
	f.IntVar(&opts.Seeds, "seeds", 1, "run each scenario with `N` seeds (seed, seed+1, ...) and print each figure as mean ± 95% interval")
	f.BoolVar(&opts.Wide, "wide", false, "print every table column and each finding on one line, however wide the terminal")
	f.IntVar(&opts.Width, "width", opts.Width, "fit the table to `N` columns (default: the terminal's width; 0: full layout)")
	f.Int64Var(&opts.MaxEvents, "max-events", defaultMaxEvents, "the event budget: refuse a scenario estimated to need more than `N` events, and stop a run that reaches N")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"table", "json", "csv"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("lanes", completeLanes)
	_ = cmd.RegisterFlagCompletionFunc("trace", cobra.FixedCompletions([]string{"csv", "jsonl"}, cobra.ShellCompDirectiveFilterFileExt))
	_ = cmd.RegisterFlagCompletionFunc("out", cobra.FixedCompletions(nil, cobra.ShellCompDirectiveFilterDirs))
	return cmd
}

func runRun(opts *runOptions) error {
	if opts.Seeds > 1 {
		return runSeeds(opts)
	}
	list, err := opts.overrides().Load(opts.Args)
	if err := errors.Join(err, checkOutputs(opts)); err != nil {
		return err
	}
	if err := opts.overrides().Apply(list); err != nil {
		return err
	}
	if opts.Format == "csv" {
		if err := report.CheckCSV(list); err != nil {
			return err
		}
	}
	var out *report.Dir
	if opts.OutDir != "" {
		if out, err = report.CreateDir(opts.OutDir); err != nil {
			return err
		}
		defer out.Abort() // after Commit, a no-op
	}
	var trace *run.TraceFile
	if opts.TracePath != "" {
		if trace, err = run.CreateTrace(report.TracePath(opts.TracePath, out)); err != nil {
			return err
		}
		defer trace.Abort() // after Commit, a no-op
	}
	var outcomes []report.Run
	for _, s := range list {
		o, err := runOne(opts, s, trace, out != nil)
		if err != nil {
			return err
		}
		outcomes = append(outcomes, o)
	}
	var buf bytes.Buffer
	switch opts.Format {
	case "json":
		err = report.WriteJSON(&buf, outcomes)
	case "csv":
		err = report.WriteCSV(&buf, outcomes)
	default:
		err = report.WriteTableFit(&buf, outcomes, opts.Width)
	}
	if err != nil {
		return err
	}
	if trace != nil {
		if err := trace.Commit(); err != nil {
			return err
		}
	}
	if out != nil {
		var lines []string
		for i, o := range outcomes {
			lines = append(lines, reproduce(opts, opts.Args[i], o))
		}
		if err := report.WriteDir(out, outcomes, lines); err != nil {
			return err
		}
		if err := out.Commit(); err != nil {
			return err
		}
	}
	if _, err := opts.Out.Write(buf.Bytes()); err != nil {
		return err
	}
	return checksFailed(outcomes)
}

// checksFailed is the error, exit status 1, of a run whose scenarios' checks
// did not all pass; the output above lists each.
func checksFailed(outcomes []report.Run) error {
	failed, all := 0, 0
	for _, o := range outcomes {
		failed += run.Failed(o.Checks)
		all += len(o.Checks)
	}
	if failed == 0 {
		return nil
	}
	return fmt.Errorf("rlsim: %d of %d checks failed", failed, all)
}

// overrides are the flags that replace a scenario's own settings.
func (opts *runOptions) overrides() run.Overrides {
	return run.Overrides{Seed: opts.Seed, Duration: opts.Duration, Lanes: opts.Lanes, Sets: opts.Sets, MaxEvents: opts.MaxEvents}
}

// checkOutputs refuses, all at once and before the run, --out and --trace paths
// that would lose a file: a directory holding what rlsim did not write, a trace
// the report would overwrite or delete.
func checkOutputs(opts *runOptions) error {
	var errs []error
	if opts.OutDir != "" {
		errs = append(errs, report.CheckDir(opts.OutDir))
	}
	if opts.TracePath != "" {
		_, err := run.TraceIsJSONL(opts.TracePath)
		errs = append(errs, err, report.CheckTrace(opts.TracePath, opts.OutDir))
	}
	return errors.Join(errs...)
}

// reproduce is the command line that runs arg again with the same settings.
func reproduce(opts *runOptions, arg string, o report.Run) string {
	return reproduceSeed(opts, arg, o.Seed())
}

// reproduceSeed is the command line that runs arg again from seed.
func reproduceSeed(opts *runOptions, arg string, seed uint64) string {
	parts := []string{"rlsim", "run", shellQuote(arg), "--seed", fmt.Sprint(seed)}
	// A flag that does not apply to o's kind of run was refused before it ran.
	if opts.Duration > 0 {
		parts = append(parts, "--duration", opts.Duration.String())
	}
	if opts.Lanes != "" {
		parts = append(parts, "--lanes", shellQuote(opts.Lanes))
	}
	for _, set := range opts.Sets {
		parts = append(parts, "--set", shellQuote(set))
	}
	if opts.MaxEvents != defaultMaxEvents && opts.MaxEvents > 0 {
		parts = append(parts, "--max-events", fmt.Sprint(opts.MaxEvents))
	}
	return strings.Join(parts, " ")
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./,:=+@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// runOne runs one scenario; with timeline, it collects the ticks a report draws.
func runOne(opts *runOptions, s *scenarios.Scenario, trace *run.TraceFile, timeline bool) (report.Run, error) {
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	ro := run.Options{MaxEvents: opts.MaxEvents, Trace: trace, Simulate: opts.Simulate}
	var tl *report.Timeline
	if timeline {
		ro.Collect = func(c sim.Config) sim.TraceSink {
			tl = report.NewTimeline(c)
			return tl
		}
	}
	if opts.Progress != nil {
		p := newProgressLine(opts.Progress, scenarios.Escape(s.Name), time.Now)
		ro.Progress = p.update
		defer p.clear()
	}
	o, err := run.Scenario(ctx, s, ro)
	return report.NewRun(o, tl), err
}

// progressLine redraws one line on a terminal as a run advances: how far in
// virtual time, the events per second of wall time so far and the time left
// at that pace (ETA).
type progressLine struct {
	w     io.Writer
	name  string
	last  int64            // the percentage last drawn, -1 before the first
	clock func() time.Time // the wall clock
	start time.Time
}

func newProgressLine(w io.Writer, name string, clock func() time.Time) *progressLine {
	return &progressLine{w: w, name: name, last: -1, clock: clock, start: clock()}
}

func (p *progressLine) update(pr sim.Progress) {
	if pr.End <= 0 {
		return
	}
	pct := int64(pr.Now) * 100 / int64(pr.End)
	if pct == p.last {
		return
	}
	p.last = pct
	fmt.Fprintf(p.w, "\r\x1b[K%s: %3d%%  t=%s of %s", p.name, pct, report.FormatDuration(pr.Now), report.FormatDuration(pr.End))
	elapsed := p.clock().Sub(p.start)
	if elapsed <= 0 || pr.Now <= 0 {
		return
	}
	fmt.Fprintf(p.w, "  %s events/s", perSecond(pr.Events, elapsed))
	left := time.Duration(float64(elapsed) * float64(pr.End-pr.Now) / float64(pr.Now))
	fmt.Fprintf(p.w, "  ETA %v", left.Round(time.Second))
}

// perSecond is n per elapsed, in thousands (k) or millions (M) past 10,000.
func perSecond(n int64, elapsed time.Duration) string {
	r := float64(n) / elapsed.Seconds()
	switch {
	case r >= 1e7:
		return fmt.Sprintf("%.0f M", r/1e6)
	case r >= 1e6:
		return fmt.Sprintf("%.1f M", r/1e6)
	case r >= 1e4:
		return fmt.Sprintf("%.0f k", r/1e3)
	}
	return fmt.Sprintf("%.0f", r)
}

func (p *progressLine) clear() {
	if p.last >= 0 {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
