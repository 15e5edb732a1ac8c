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
	MaxEvents int64
	// Width is the terminal's width for the table, 0 for the full layout.
	Width int
	Wide  bool

	// Simulate and Contend run the simulations; tests replace them.
	Simulate func(context.Context, sim.Config, sim.Options) (sim.Result, error)
	Contend  func(context.Context, sim.ContentionConfig) (sim.ContentionResult, error)
}

// NewCmdRun builds "rlsim run". runF, when not nil, replaces the run itself (tests).
func NewCmdRun(out, progress io.Writer, runF func(*runOptions) error) *cobra.Command {
	opts := &runOptions{Out: out, Progress: progress, Simulate: sim.Run, Contend: sim.RunContention,
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
  rlsim run retry-storm-no-jitter retry-storm-full-jitter --format csv
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
	f.StringVar(&opts.Lanes, "lanes", "", "comma-separated lanes to run, replacing the file's (e.g. token_bucket,gcra)")
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
	list, err := loadAll(opts.Args)
	if err := errors.Join(err, checkOutputs(opts)); err != nil {
		return err
	}
	if err := applyOverrides(opts, list); err != nil {
		return err
	}
	if opts.Format == "csv" && mixedKinds(list) {
		return badInputf("--format csv: a contention study and a limiter comparison have different columns; run them separately")
	}
	var out *reportDir
	if opts.OutDir != "" {
		if out, err = createReportDir(opts.OutDir); err != nil {
			return err
		}
		defer out.Abort() // after Commit, a no-op
	}
	var trace *traceFile
	if opts.TracePath != "" {
		if trace, err = createTrace(tracePath(opts.TracePath, out)); err != nil {
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
		if err := writeReport(out, opts, outcomes); err != nil {
			return err
		}
		if err := out.Commit(); err != nil {
			return err
		}
	}
	_, err = opts.Out.Write(buf.Bytes())
	return err
}

// writeReport writes index.html, the PNG plots and results.json into out.
func writeReport(out *reportDir, opts *runOptions, outcomes []report.Run) error {
	var pages []report.Page
	used := map[string]bool{"index": true, "results": true}
	for i, o := range outcomes {
		p, err := report.NewPage(o, reproduce(opts, opts.Args[i], o))
		if err != nil {
			return err
		}
		prefix := o.Scenario.Name
		for n := 2; used[prefix]; n++ {
			prefix = fmt.Sprintf("%s-%d", o.Scenario.Name, n)
		}
		used[prefix] = true
		for _, img := range p.Images {
			if err := out.Write(prefix+"-"+img.Figure.Name+".png", img.PNG); err != nil {
				return err
			}
		}
		pages = append(pages, p)
	}
	var html, js bytes.Buffer
	if err := report.WriteHTML(&html, pages); err != nil {
		return err
	}
	if err := report.WriteJSON(&js, outcomes); err != nil {
		return err
	}
	return errors.Join(out.Write("index.html", html.Bytes()), out.Write("results.json", js.Bytes()))
}

// reproduce is the command line that runs arg again with the same settings.
func reproduce(opts *runOptions, arg string, o report.Run) string {
	parts := []string{"rlsim", "run", shellQuote(arg)}
	if o.Contention != nil {
		parts = append(parts, "--seed", fmt.Sprint(o.Scenario.Contention.Seed))
	} else {
		parts = append(parts, "--seed", fmt.Sprint(o.Result.Seed))
		if opts.Duration > 0 {
			parts = append(parts, "--duration", opts.Duration.String())
		}
		if opts.Lanes != "" {
			parts = append(parts, "--lanes", shellQuote(opts.Lanes))
		}
		if opts.MaxEvents != defaultMaxEvents && opts.MaxEvents > 0 {
			parts = append(parts, "--max-events", fmt.Sprint(opts.MaxEvents))
		}
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

func applyOverrides(opts *runOptions, list []*scenarios.Scenario) error {
	var lanes []sim.LaneKind
	if opts.Lanes != "" {
		var err error
		if lanes, err = scenarios.ParseLanes(opts.Lanes); err != nil {
			return badInputf("--lanes: %v", err)
		}
	}
	var errs []error
	for _, s := range list {
		if s.Contention != nil {
			if opts.Seed != nil {
				s.Contention.Seed = *opts.Seed
			}
			for _, flag := range []struct {
				name string
				set  bool
			}{{"--lanes", lanes != nil}, {"--duration", opts.Duration > 0}} {
				if flag.set {
					errs = append(errs, badInputf("%s: %s does not apply to %s, a contention study", s.File, flag.name, s.Name))
				}
			}
			errs = append(errs, overBudget(s, opts.MaxEvents))
			continue
		}
		c := s.Config
		if opts.Seed != nil {
			c.Seed = *opts.Seed
		}
		if opts.Duration > 0 {
			c.Duration = opts.Duration
		}
		if lanes != nil {
			c.Lanes = lanes
		}
		if err := c.Validate(); err != nil {
			errs = append(errs, badInputf("%s: with the flags given: %s", s.File, strings.ReplaceAll(err.Error(), "\n", "; ")))
			continue
		}
		errs = append(errs, overBudget(s, opts.MaxEvents))
	}
	return badInput(errors.Join(errs...))
}

// overBudget refuses s, before it runs, when it is estimated to need more than budget events.
func overBudget(s *scenarios.Scenario, budget int64) error {
	err := s.CheckBudget(budget)
	var be *scenarios.BudgetError
	if !errors.As(err, &be) {
		return err
	}
	return badInputf("%v; shorten the scenario or lift the budget with --max-events %d", err, roundUp(be.Estimate))
}

// roundUp rounds n up to two significant digits, for a budget worth suggesting.
func roundUp(n int64) int64 {
	p := int64(1)
	for n/p >= 100 {
		p *= 10
	}
	return (n + p - 1) / p * p
}

func mixedKinds(list []*scenarios.Scenario) bool {
	var contention, comparison bool
	for _, s := range list {
		contention = contention || s.Contention != nil
		comparison = comparison || s.Config != nil
	}
	return contention && comparison
}

// runOne runs one scenario; with timeline, it collects the ticks a report draws.
func runOne(opts *runOptions, s *scenarios.Scenario, trace *traceFile, timeline bool) (report.Run, error) {
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	o := report.Run{Scenario: s}
	if s.Contention != nil {
		c := *s.Contention
		c.MaxEvents = opts.MaxEvents
		r, err := opts.Contend(ctx, c)
		if err != nil {
			return o, runFailed(s, err)
		}
		o.Contention = &r
		return o, nil
	}
	so := sim.Options{MaxEvents: opts.MaxEvents}
	var sinks teeSink
	if trace != nil {
		sinks = append(sinks, trace.Sink(s.Name))
	}
	if timeline {
		o.Timeline = report.NewTimeline(*s.Config)
		sinks = append(sinks, o.Timeline)
	}
	switch len(sinks) {
	case 1:
		so.Trace = sinks[0]
	case 2:
		so.Trace = sinks
	}
	if opts.Progress != nil {
		p := &progressLine{w: opts.Progress, name: s.Name, last: -1}
		so.Progress = p.update
		defer p.clear()
	}
	r, err := opts.Simulate(ctx, *s.Config, so)
	if err != nil {
		return o, runFailed(s, err)
	}
	o.Result = &r
	return o, nil
}

// teeSink hands every record to each of its sinks.
type teeSink []sim.TraceSink

func (t teeSink) Record(r *sim.TraceRecord) error {
	for _, s := range t {
		if err := s.Record(r); err != nil {
			return err
		}
	}
	return nil
}

func runFailed(s *scenarios.Scenario, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	var be *sim.BudgetError
	if errors.As(err, &be) {
		return badInputf("%s: the run %v; nothing was written; to finish, lift the budget with --max-events above %d", s.File, be, be.Budget)
	}
	return fmt.Errorf("%s: %w", s.File, err)
}

// progressLine redraws one line on a terminal as a run advances.
type progressLine struct {
	w    io.Writer
	name string
	last int64
}

func (p *progressLine) update(now, end time.Duration) {
	if end <= 0 {
		return
	}
	pct := int64(now) * 100 / int64(end)
	if pct == p.last {
		return
	}
	p.last = pct
	fmt.Fprintf(p.w, "\r\x1b[K%s: %3d%%  t=%s of %s", p.name, pct, report.FormatDuration(now), report.FormatDuration(end))
}

func (p *progressLine) clear() {
	if p.last >= 0 {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
