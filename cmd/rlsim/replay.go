package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/replay"
	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
)

type replayOptions struct {
	Out      io.Writer
	Progress io.Writer
	Err      io.Writer // warnings (stderr)
	Ctx      context.Context

	Args       []string
	Limits     []string
	Lanes      []string
	LogFormat  string
	Fields     string
	TZ         string
	Late       time.Duration
	Strict     bool
	LegitBelow float64
	Top        int
	Format     string
	OutDir     string
	Vary       string
	Find       string
	Where      []string
	Scenario   string
}

// NewCmdReplay builds "rlsim replay". runF, when not nil, replaces the replay itself (tests).
func NewCmdReplay(out, progress io.Writer, runF func(*replayOptions) error) *cobra.Command {
	opts := &replayOptions{Out: out, Progress: progress}
	cmd := &cobra.Command{
		Use:   "replay LOG...",
		Short: "Replay access logs through every lane in shadow: whom each limit would refuse",
		Long: `Read access logs (nginx/Apache combined, JSON lines or CSV with a header; gzip
read directly; - is stdin) and replay every request's time and key through the
six per-key lanes in shadow: nothing is refused, so the traffic stays what it was.
For each limit and lane: requests that would have been refused, keys ever
refused, the top key with its peak requests per window, and the legitimate-looking
keys caught (at most --legit-below of the limit per window in 90% of the windows
they were active). Lines up to --late behind the latest are put back in order;
later ones, and lines that do not parse, are counted, never fatal unless --strict;
but a log in which no line parses is exit 2, and more than 10% bad lines a warning.

Keys: ip, ip/24 (IPv6: /64), method, path, endpoint (method and normalised path),
user, global, field:NAME (a JSON or CSV field), joined by + (ip+endpoint).`,
		Example: `  rlsim replay access.log.gz --limit 'key=ip limit=100/1m burst=20'
  rlsim replay api.jsonl --fields time=ts,ip=remote_addr --limit 'key=field:api_key limit=10/1s'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args, opts.Ctx, opts.Err = args, cmd.Context(), cmd.ErrOrStderr()
			if runF != nil {
				return runF(opts)
			}
			return replayRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Scenario, "scenario", "", "take the limits and lanes from a scenario `FILE|NAME` (before any --limit; api_key and tenant keys read those fields)")
	f.StringArrayVar(&opts.Limits, "limit", nil, "a limit to replay, `'key=ip limit=100/1m burst=20 name=N endpoint=/login'`; repeatable")
	f.StringArrayVar(&opts.Lanes, "lane", nil, "replay only this `lane` (default all six per-key lanes); repeatable")
	f.StringVar(&opts.LogFormat, "log-format", "auto", "the logs' `format`: auto, combined, json, csv")
	f.StringVar(&opts.Fields, "fields", "", "JSON/CSV field names, `time=ts,ip=remote_addr,method=m,path=p,user=u`")
	f.StringVar(&opts.TZ, "tz", "UTC", "the time `zone` of JSON/CSV times written without an offset")
	f.DurationVar(&opts.Late, "late", 5*time.Second, "replay lines up to `D` behind the latest in their place; count later ones")
	f.BoolVar(&opts.Strict, "strict", false, "stop at the first line that does not parse")
	f.Float64Var(&opts.LegitBelow, "legit-below", 0.5, "a key looks legitimate at or below this `share` of the limit per window")
	f.IntVar(&opts.Top, "top", 10, "keys listed per lane and limit in JSON")
	f.StringVar(&opts.Format, "format", "text", "output `format`: text, json, csv")
	f.StringVar(&opts.OutDir, "out", "", "also write replay.txt, .json, .csv, report.html and PNG plots into `DIR` (a report folder)")
	f.StringVar(&opts.Vary, "vary", "", "replay limits[N].limit or limits[N].burst at each of `PATH=V1,V2 or PATH=FROM..TO/STEP`, in the same pass")
	f.StringVar(&opts.Find, "find", "", "with --vary, `min PATH`: each lane's smallest value meeting every --where (default: refusing no key at or below the p99 of per-key peaks)")
	f.StringArrayVar(&opts.Where, "where", nil, "with --find, a `CONDITION` '[lane LANE] METRIC OP VALUE' on a swept row, METRIC one of "+replayWhereMetrics()+"; repeatable")
	return cmd
}

func replayOptionsOf(opts *replayOptions) (replay.Options, error) {
	var errs []error
	ro := replay.Options{Lanes: opts.Lanes, Format: opts.LogFormat, Late: opts.Late, Strict: opts.Strict,
		LegitBelow: opts.LegitBelow, Top: opts.Top}
	if opts.Scenario != "" {
		sc, err := run.Load(opts.Scenario)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("--scenario: %w", err))
		case sc.Config == nil:
			errs = append(errs, fmt.Errorf("--scenario %s: a contention study has no limits to replay", opts.Scenario))
		default:
			limits, lanes, err := replay.FromScenario(sc.Config)
			if err != nil {
				errs = append(errs, fmt.Errorf("--scenario %s: %v", opts.Scenario, err))
			}
			ro.Limits = limits
			if len(ro.Lanes) == 0 {
				ro.Lanes = lanes
			}
		}
	}
	// The lanes' own checks on each limit (a limit or burst whose exact
	// arithmetic would overflow), on the lanes that will replay it.
	var lanesKnown []string
	for _, lane := range ro.Lanes {
		if slices.Contains(replay.LaneNames, lane) {
			lanesKnown = append(lanesKnown, lane)
		}
	}
	limitsOK := len(errs) == 0
	for _, l := range ro.Limits {
		if err := l.Check(lanesKnown); err != nil {
			limitsOK = false
			errs = append(errs, fmt.Errorf("--scenario %s: limit %s: %v", opts.Scenario, l.Name, err))
		}
	}
	for _, s := range opts.Limits {
		l, err := replay.ParseLimit(s)
		if err == nil {
			err = l.Check(lanesKnown)
		}
		if err != nil {
			limitsOK = false
			errs = append(errs, fmt.Errorf("--limit %q: %v", s, err))
		}
		ro.Limits = append(ro.Limits, l)
	}
	if len(opts.Limits) == 0 && opts.Scenario == "" {
		errs = append(errs, errors.New("--limit: at least one is needed (or --scenario), e.g. --limit 'key=ip limit=100/1m burst=20'"))
	}
	fields, err := replay.ParseFields(opts.Fields)
	if err != nil {
		errs = append(errs, fmt.Errorf("--fields: %v", err))
	}
	ro.Fields = fields
	if ro.Location, err = time.LoadLocation(opts.TZ); err != nil {
		errs = append(errs, fmt.Errorf("--tz: unknown zone %q", opts.TZ))
	}
	if opts.Late < 0 {
		errs = append(errs, fmt.Errorf("--late: must not be negative, got %v", opts.Late))
	}
	if opts.Late == 0 {
		ro.Late = replay.NoLate // not the default
	}
	if !(opts.LegitBelow > 0 && opts.LegitBelow <= 1) { // NaN too
		errs = append(errs, fmt.Errorf("--legit-below: want a share in (0, 1], got %v", opts.LegitBelow))
	}
	if opts.Top <= 0 {
		errs = append(errs, fmt.Errorf("--top: must be positive, got %d", opts.Top))
	}
	for _, lane := range opts.Lanes {
		if !slices.Contains(replay.LaneNames, lane) {
			errs = append(errs, fmt.Errorf("--lane: %q is not a lane a log can replay (want %s)", lane, strings.Join(replay.LaneNames, ", ")))
		}
	}
	if opts.Vary != "" {
		v, err := sweep.ParseVary(opts.Vary)
		if err == nil {
			ro.Sweep, err = replay.NewSweep(v.Path, v.Values, ro.Limits)
		}
		if err == nil && limitsOK {
			err = ro.Sweep.Check(ro.Limits, lanesKnown)
		}
		if err != nil {
			errs = append(errs, err)
		}
	}
	if opts.Find != "" {
		path, ok := strings.CutPrefix(opts.Find, "min ")
		if ro.Sweep == nil || !ok || strings.TrimSpace(path) != ro.Sweep.Path {
			errs = append(errs, fmt.Errorf("--find %s: want 'min PATH', PATH the --vary path", oneLine(opts.Find)))
		}
	}
	if opts.Find == "" && len(opts.Where) > 0 {
		errs = append(errs, errors.New("--where: needs --vary and --find 'min PATH' to say what to pick"))
	}
	lanes := ro.Lanes
	if len(lanes) == 0 {
		lanes = replay.LaneNames
	}
	for _, s := range opts.Where {
		w, err := replay.ParseWhere(s, lanes)
		if err != nil {
			errs = append(errs, err)
		}
		ro.Where = append(ro.Where, w)
	}
	switch opts.Format {
	case "text", "json", "csv":
	default:
		errs = append(errs, fmt.Errorf("--format: unknown %q (want text, json, csv)", opts.Format))
	}
	switch opts.LogFormat {
	case "auto", "combined", "json", "csv":
	default:
		errs = append(errs, fmt.Errorf("--log-format: unknown %q (want auto, combined, json, csv)", opts.LogFormat))
	}
	return ro, errors.Join(errs...)
}

func replayRun(opts *replayOptions) error {
	ro, err := replayOptionsOf(opts)
	if err != nil {
		return badInput(err)
	}
	var inputs []replay.Input
	var total int64
	for _, name := range opts.Args {
		if name == "-" {
			inputs = append(inputs, replay.Input{Name: "-", R: os.Stdin})
			total = -1
			continue
		}
		f, err := os.Open(name)
		if err != nil {
			return badInputf("%s: %v", name, err)
		}
		defer f.Close()
		if st, err := f.Stat(); err == nil && total >= 0 {
			total += st.Size()
		}
		inputs = append(inputs, replay.Input{Name: name, R: f})
	}
	if opts.Progress != nil {
		start := time.Now()
		ro.Progress = func(lines, bytes int64) {
			el := time.Since(start).Seconds()
			fmt.Fprint(opts.Progress, replayProgress(lines, bytes, total, el))
		}
		defer fmt.Fprint(opts.Progress, "\r\033[K")
	}
	ctx := opts.Ctx
	if ctx == nil {
		ctx = context.Background()
	}
	res, err := replay.Replay(ctx, inputs, ro)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		return badInput(err)
	}
	if opts.Err != nil {
		for _, w := range res.Warnings {
			fmt.Fprintf(opts.Err, "rlsim replay: warning: %s\n", w)
		}
	}
	var outs [3]bytes.Buffer
	if err := replay.WriteTextFit(&outs[0], res, terminalWidth(opts.Out)); err != nil {
		return err
	}
	if ro.Sweep != nil {
		if err := replay.WriteSweepText(&outs[0], ro.Sweep, res, opts.Find != "", ro.Where); err != nil {
			return err
		}
	}
	if err := replay.WriteJSON(&outs[1], res); err != nil {
		return err
	}
	if err := replay.WriteCSV(&outs[2], res); err != nil {
		return err
	}
	if opts.OutDir != "" {
		d, err := report.CreateDir(opts.OutDir)
		if err != nil {
			return err
		}
		files, err := replay.Plots(res, ro.Sweep)
		if err != nil {
			d.Abort()
			return err
		}
		files["replay.txt"], files["replay.json"], files["replay.csv"] = outs[0].Bytes(), outs[1].Bytes(), outs[2].Bytes()
		if files["report.html"], err = replay.HTML(outs[0].String(), files); err != nil {
			d.Abort()
			return err
		}
		for _, name := range slices.Sorted(maps.Keys(files)) {
			if err := d.Write(name, files[name]); err != nil {
				d.Abort()
				return err
			}
		}
		if err := d.Commit(); err != nil {
			return err
		}
	}
	chosen := map[string]int{"text": 0, "json": 1, "csv": 2}[opts.Format]
	_, err = opts.Out.Write(outs[chosen].Bytes())
	return err
}

// replayProgress is the progress line after lines lines and bytes bytes of the
// inputs (compressed bytes for gzip) in elapsed seconds: an ETA from the files'
// total size, none when total is unknown (stdin: total < 0).
func replayProgress(lines, bytes, total int64, elapsed float64) string {
	if elapsed <= 0 {
		return fmt.Sprintf("\r%d lines   ", lines)
	}
	eta := ""
	if total > 0 && bytes > 0 && bytes <= total {
		eta = fmt.Sprintf(", ETA %ds", int64(float64(total-bytes)/(float64(bytes)/elapsed)))
	}
	return fmt.Sprintf("\r%d lines, %.0f lines/s%s   ", lines, float64(lines)/elapsed, eta)
}

// replayWhereMetrics lists the metrics a replay's --where names.
func replayWhereMetrics() string {
	var names []string
	for _, m := range replay.WhereMetrics {
		names = append(names, m.Name)
	}
	return strings.Join(names, ", ")
}

// oneLine is a flag's value as an error shows it: quoted when it holds a line
// break or another control character, so that the error stays one line.
func oneLine(s string) string {
	if strings.ContainsFunc(s, unicode.IsControl) {
		return strconv.Quote(s)
	}
	return s
}
