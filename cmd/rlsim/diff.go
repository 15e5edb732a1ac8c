package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/replay"
	"github.com/rlsim/rlsim/report/diff"
	"github.com/rlsim/rlsim/report/textlayout"
	"github.com/rlsim/rlsim/run"
)

type diffOptions struct {
	Out   io.Writer
	Err   io.Writer // warnings (stderr)
	Stdin io.Reader // the log "-"
	Ctx   context.Context

	Args      []string // CURRENT PROPOSED
	Scenario  string
	Logs      []string
	Lane      string
	From      string
	Seed      *uint64
	MaxEvents int64
	Top       int
	FailOn    []string
	JUnit     string
	Format    string
	// Read are the log flags, as rlsim replay has them.
	Read replay.Flags
}

// NewCmdDiff builds "rlsim diff". runF, when not nil, replaces the diff itself (tests).
func NewCmdDiff(out io.Writer, runF func(*diffOptions) error) *cobra.Command {
	opts := &diffOptions{Out: out}
	var seed uint64
	cmd := &cobra.Command{
		Use:   "diff CURRENT PROPOSED (--scenario FILE|NAME | --log LOG...)",
		Short: "Compare a current and a proposed limit on the same traffic: whom the change newly refuses",
		Long: `Run the same traffic through a current and a proposed config and say, key by
key, what the change does: the requests and keys it newly refuses and newly
admits, by client class, the keys it hits hardest with their requests, and the
change in the peak admitted in a window and in store calls. CURRENT and
PROPOSED are each a product's config (nginx, Envoy, Kong, Traefik, HAProxy:
imported as --config imports it) or a scenario file (its limits, lanes and
chain are taken); a built-in's NAME or a .yaml file no product reader
recognises is a scenario.

--scenario runs that scenario's clients, with the same seed, against each
side; --log replays access logs through each side's limits in shadow, as
rlsim replay --scenario does (a key's requests are then its peak in one window
of the limit). Lanes are compared by name; when each side has one, those two
whatever their names; --lane NAME or --lane CURRENT=PROPOSED picks a pair.

--fail-on 'METRIC OP VALUE' (repeatable; OP one of > >= < <= == !=) fails the
diff when it holds on any pair. METRIC is one of:
` + metricList() + `
(from ` + diff.MetricNames()[len(diff.Metrics)] + ` on: the scenario checks' metrics, measured on the
proposed side, with --scenario only). --junit FILE writes the results as JUnit
XML, one testcase each; it replaces only a JUnit file rlsim diff wrote.

Exit status: 0 no --fail-on held; 1 one held (the report is printed first);
2 bad input (a config, scenario, log, flag or expression to fix); 3 could not
finish (the JUnit file could not be written).`,
		Example: `  rlsim diff old.conf new.conf --log access.log \
      --fail-on 'newly_refused_keys_below_p99 > 0' --junit report.xml
  rlsim diff current.yaml proposed.yaml --scenario nat-per-ip --format json
  rlsim diff nginx.conf nginx-pr.conf --scenario my-traffic.yaml --lane nginx`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args, opts.Ctx, opts.Err, opts.Stdin = args, cmd.Context(), cmd.ErrOrStderr(), cmd.InOrStdin()
			if cmd.Flags().Changed("seed") {
				opts.Seed = &seed
			}
			if runF != nil {
				return runF(opts)
			}
			return diffRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Scenario, "scenario", "", "run this scenario's clients (`FILE|NAME`) against each side")
	f.StringArrayVar(&opts.Logs, "log", nil, "replay this access `LOG` through each side's limits in shadow (- is stdin); repeatable")
	f.StringVar(&opts.Lane, "lane", "", "compare only this lane, `NAME` on both sides or CURRENT=PROPOSED")
	f.StringVar(&opts.From, "from", "auto", "the configs' product: auto (detected), nginx, envoy, kong, traefik, haproxy")
	f.Uint64Var(&seed, "seed", 0, "seed of every random stream on both sides, replacing the scenario's")
	f.Int64Var(&opts.MaxEvents, "max-events", defaultMaxEvents, "the event budget of each side: refuse a side estimated to need more than `N` events, before either runs")
	f.IntVar(&opts.Top, "top", 10, "keys listed per pair, newly refused and newly admitted")
	f.StringArrayVar(&opts.FailOn, "fail-on", nil, "fail (exit 1) when `'METRIC OP VALUE'` holds on any pair; repeatable")
	f.StringVar(&opts.JUnit, "junit", "", "write the --fail-on results as JUnit XML to `FILE`")
	formatFlag(f, &opts.Format, "text", "output `format`: text, json")
	f.StringVar(&opts.Read.LogFormat, "log-format", "auto", "the logs' `format`: "+strings.Join(replay.Formats, ", "))
	f.StringVar(&opts.Read.NginxFormat, "nginx-format", "", "read nginx logs written by this log_format `STRING`; implies --log-format nginx")
	f.StringVar(&opts.Read.EnvoyFormat, "envoy-format", "", "read Envoy logs written by this text_format `STRING`; implies --log-format envoy")
	f.StringVar(&opts.Read.Fields, "fields", "", "the fields holding a request's parts, `time=ts,ip=remote_addr,...` (as rlsim replay)")
	f.StringVar(&opts.Read.TZ, "tz", "UTC", "the time `zone` of log times written without an offset")
	f.DurationVar(&opts.Read.Late, "late", 5*time.Second, "replay log lines up to `D` behind the latest in their place")
	f.BoolVar(&opts.Read.Strict, "strict", false, "stop at the first log line that does not parse")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// metricList is the --fail-on metrics, wrapped for the help.
func metricList() string {
	var b strings.Builder
	textlayout.Wrap(&b, strings.Join(diff.MetricNames(), ", "), "  ", "  ", helpWidth)
	return strings.TrimRight(b.String(), "\n")
}

func diffRun(opts *diffOptions) error {
	var errs []error
	mode := "scenario"
	switch {
	case opts.Scenario == "" && len(opts.Logs) == 0:
		errs = append(errs, errors.New("--scenario or --log: give one, the traffic both sides meet"))
	case opts.Scenario != "" && len(opts.Logs) > 0:
		errs = append(errs, errors.New("--scenario, --log: give one"))
	case len(opts.Logs) > 0:
		mode = "log"
	}
	if opts.Format != "text" && opts.Format != "json" {
		errs = append(errs, fmt.Errorf("--format: unknown %q (want text, json)", opts.Format))
	}
	if opts.MaxEvents <= 0 {
		errs = append(errs, fmt.Errorf("--max-events: must be positive, got %d", opts.MaxEvents))
	}
	if opts.Top <= 0 {
		errs = append(errs, fmt.Errorf("--top: must be positive, got %d", opts.Top))
	}
	var failOn []diff.FailOn
	for _, s := range opts.FailOn {
		fo, err := diff.ParseFailOn(s, mode)
		errs = append(errs, err)
		failOn = append(failOn, fo)
	}
	var read replay.Options
	if mode == "log" {
		// replay's own flag checks, with a stand-in limit: each side gives its own.
		fl := opts.Read
		fl.Limits, fl.Top, fl.LegitBelow, fl.Format = []string{"key=global limit=1/1s"}, 10, 0.5, "text"
		ro, err := fl.Options()
		errs = append(errs, err)
		read = ro
		if opts.Seed != nil {
			errs = append(errs, errors.New("--seed: a log has no random streams; --seed goes with --scenario"))
		}
	}
	if opts.JUnit != "" {
		errs = append(errs, diff.CheckJUnit(opts.JUnit))
	}
	if err := errors.Join(errs...); err != nil {
		return badInput(err)
	}
	var sides []*diff.Side
	for _, arg := range opts.Args {
		s, err := diff.LoadSide(arg, opts.From)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, w := range s.Warnings {
			fmt.Fprintf(opts.Err, "warning: %s\n", w)
		}
		sides = append(sides, s)
	}
	if err := errors.Join(errs...); err != nil {
		return badInput(err)
	}
	ctx := ctxOf(opts.Ctx)
	var r *diff.Report
	var err error
	if mode == "log" {
		stdin := opts.Stdin
		if stdin == nil {
			stdin = os.Stdin
		}
		var warnings []string
		r, warnings, err = diff.Log(ctx, sides[0], sides[1], diff.LogOptions{Logs: opts.Logs, Stdin: stdin, Read: read,
			Lane: opts.Lane, Top: opts.Top, FailOn: failOn})
		for _, w := range warnings {
			fmt.Fprintf(opts.Err, "rlsim diff: warning: %s\n", w)
		}
	} else {
		r, err = diff.Scenario(ctx, sides[0], sides[1], diff.ScenarioOptions{Scenario: opts.Scenario, Seed: opts.Seed,
			MaxEvents: opts.MaxEvents, Lane: opts.Lane, Top: opts.Top, FailOn: failOn})
	}
	if err != nil {
		return err
	}
	if opts.JUnit != "" {
		if err := diff.WriteJUnit(opts.JUnit, r); err != nil {
			return err
		}
	}
	if opts.Format == "json" {
		err = diff.WriteJSON(opts.Out, r)
	} else {
		err = diff.WriteText(opts.Out, r)
	}
	if err != nil {
		return err
	}
	if r.Failed > 0 {
		return run.CheckFailed(fmt.Errorf("rlsim diff: %d of %d --fail-on held", r.Failed, len(r.FailOn)))
	}
	return nil
}
