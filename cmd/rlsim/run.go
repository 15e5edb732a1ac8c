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
	Seed      *uint64
	Duration  time.Duration
	Lanes     string
	MaxEvents int64

	// Simulate and Contend run the simulations; tests replace them.
	Simulate func(context.Context, sim.Config, sim.Options) (sim.Result, error)
	Contend  func(context.Context, sim.ContentionConfig) (sim.ContentionResult, error)
}

// NewCmdRun builds "rlsim run". runF, when not nil, replaces the run itself (tests).
func NewCmdRun(out, progress io.Writer, runF func(*runOptions) error) *cobra.Command {
	opts := &runOptions{Out: out, Progress: progress, Simulate: sim.Run, Contend: sim.RunContention}
	var seed uint64
	cmd := &cobra.Command{
		Use:   "run [FILE|NAME ...]",
		Short: "Simulate scenarios through every lane and compare",
		Long: `Run each scenario (a YAML file, or the name of a built-in one) through every
limiting lane on a virtual clock, then print a comparison table with lanes as rows
and a few findings in plain words. With no argument, run the "demo" scenario.

The JSON output is versioned and documented in docs/output.md. --trace writes every
attempt as CSV (.csv) or JSON lines (.jsonl); it appears only when the run completes.`,
		Example: `  rlsim run
  rlsim run boundary-burst
  rlsim run my-api.yaml --seed 7 --lanes token_bucket,gcra
  rlsim run retry-storm-no-jitter retry-storm-full-jitter --format csv
  rlsim run demo --format json --trace demo.jsonl`,
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
	f.Uint64Var(&seed, "seed", 0, "seed of every random stream, replacing the file's")
	f.DurationVar(&opts.Duration, "duration", 0, "how long new requests may start, replacing the file's")
	f.StringVar(&opts.Lanes, "lanes", "", "comma-separated lanes to run, replacing the file's (e.g. token_bucket,gcra)")
	f.Int64Var(&opts.MaxEvents, "max-events", defaultMaxEvents, "refuse scenarios estimated to need more events than `N`")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"table", "json", "csv"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("lanes", completeLanes)
	_ = cmd.RegisterFlagCompletionFunc("trace", cobra.FixedCompletions([]string{"csv", "jsonl"}, cobra.ShellCompDirectiveFilterFileExt))
	return cmd
}

func runRun(opts *runOptions) error {
	list, err := loadAll(opts.Args)
	if err != nil {
		return err
	}
	if err := applyOverrides(opts, list); err != nil {
		return err
	}
	if opts.Format == "csv" && mixedKinds(list) {
		return badInputf("--format csv: a contention study and a limiter comparison have different columns; run them separately")
	}
	var trace *traceFile
	if opts.TracePath != "" {
		if trace, err = createTrace(opts.TracePath); err != nil {
			return err
		}
		defer trace.Abort() // after Commit, a no-op
	}
	var outcomes []report.Run
	for _, s := range list {
		o, err := runOne(opts, s, trace)
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
		err = report.WriteTable(&buf, outcomes)
	}
	if err != nil {
		return err
	}
	if trace != nil {
		if err := trace.Commit(); err != nil {
			return err
		}
	}
	_, err = opts.Out.Write(buf.Bytes())
	return err
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
		if err := s.CheckBudget(opts.MaxEvents); err != nil {
			var be *scenarios.BudgetError
			errors.As(err, &be)
			errs = append(errs, badInputf("%v; shorten the scenario or lift the budget with --max-events %d", err, roundUp(be.Estimate)))
		}
	}
	return badInput(errors.Join(errs...))
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

func runOne(opts *runOptions, s *scenarios.Scenario, trace *traceFile) (report.Run, error) {
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	o := report.Run{Scenario: s}
	if s.Contention != nil {
		r, err := opts.Contend(ctx, *s.Contention)
		if err != nil {
			return o, runFailed(s, err)
		}
		o.Contention = &r
		return o, nil
	}
	var so sim.Options
	if trace != nil {
		so.Trace = trace.Sink(s.Name)
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

func runFailed(s *scenarios.Scenario, err error) error {
	if errors.Is(err, context.Canceled) {
		return err
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
