package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/conform"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/sim"
)

type conformOptions struct {
	Out         io.Writer
	Scenario    string
	Redis       string
	PrintScript string
	ScriptFile  string
	Lane        string
	Clock       string
	Scale       float64
	Tolerance   time.Duration
	Show        int
	Replicas    []int
	Runs        int
	Format      string
	MaxEvents   int64
	MaxWall     time.Duration
	// Prefix starts every Redis key written; empty means one new per run.
	Prefix string
}

// NewCmdConform builds "rlsim conform". runF, when not nil, replaces the run itself (tests).
func NewCmdConform(out io.Writer, runF func(*conformOptions) error) *cobra.Command {
	opts := &conformOptions{Out: out}
	cmd := &cobra.Command{
		Use:   "conform --redis ADDR FILE|NAME",
		Short: "Hold limiter scripts on a real Redis to the exact lanes",
		Long: `Replay a scenario's traffic in real time against limiter scripts on a real Redis
and compare their decisions, request for request, with the exact lanes: for each
lane with a script (fixed_window, sliding_log, sliding_window_counter,
token_bucket, gcra), the attempts the exact lane met are sent at their instants
(scaled by --time-scale) and every verdict and Retry-After is compared. The first
differences beyond --tolerance are shown in full.

Clocks: "scheduled" passes each attempt's exact instant (the script's logic
alone is compared: tolerance 0 should hold); "driver" passes the instant the
call was sent, so late sends show as skew; "server" has the script read the
Redis TIME, in real time (--time-scale 1).

--print-script NAME writes a reference script (see docs/conform.md for the
calling convention); --script FILE --lane LANE checks your own script.
--replicas N (or a list: 1,4,8) also measures the read-then-write race: N
replicas send the traffic through the racy and the atomic scripts, beside the
topology simulation of the same fleet.

Every difference from the exact lane is also checked against the exact
algorithm fed the instants Redis decided at, in the same order: a difference it
shares is the clock's; one it does not is "unexplained", the script's own. So is
every answer outside the calling convention (admitted not 1 or 0, a
Retry-After below -1 or above two windows and the burst's refill, an instant
decided at before the one passed or after the answer came back, the wrong
shape, an error the script raised).

Every call to Redis has a deadline of ` + conform.CallTimeout.String() + `. A failed call is a store error,
decided by the limit's on_store_error; a Redis whose calls have all failed for
` + conform.GoneAfter.String() + ` (killed, stopped, unreachable) has gone away, and the run ends at the
latest ` + conform.Bound.String() + ` after the first of those calls, with exit status 3 and nothing
written. A race ends at its first failed call.

Exit status: 0 when no lane has an unexplained difference or a store error; 1
when one has; 2 on bad input (a flag or the scenario, told before Redis is
called, or a script Redis cannot compile); 3 when the run could not finish
(Redis could not be reached or went away).`,
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeScenarioNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Scenario = args[0]
			}
			if err := checkConformFlags(opts); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return conformRun(cmd, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Redis, "redis", "", "the Redis to run the limiter scripts on, `host:port`")
	f.StringVar(&opts.PrintScript, "print-script", "", "write the reference script `NAME` and exit")
	f.StringVar(&opts.ScriptFile, "script", "", "check your own limiter script `FILE` (with --lane)")
	f.StringVar(&opts.Lane, "lane", "", "check only this `LANE` (with --script, the lane your script implements)")
	f.StringVar(&opts.Clock, "clock", "driver", "where the script reads the time: scheduled, driver or server")
	f.Float64Var(&opts.Scale, "time-scale", 10, fmt.Sprintf("run scenario time `S` times faster than real time, 1 to %d", int64(conform.MaxScale)))
	f.DurationVar(&opts.Tolerance, "tolerance", 50*time.Millisecond, "clock skew and round trips allowed, in scenario time; below the limit's window")
	f.IntVar(&opts.Show, "show", 5, fmt.Sprintf("differences shown in full per lane, up to %d", maxShow))
	f.IntSliceVar(&opts.Replicas, "replicas", nil, fmt.Sprintf("also measure the race of `N` replicas (1 to %d); several, as 1,4,8, one race each", maxReplicas))
	f.IntVar(&opts.Runs, "runs", 3, fmt.Sprintf("runs of the race, seed after seed, up to %d", maxRuns))
	f.StringVar(&opts.Format, "format", "text", "output `format`: text or json (docs/conform.md)")
	f.DurationVar(&opts.MaxWall, "max-wall", 10*time.Minute, "refuse a check that would take longer than `D` of real time")
	f.Int64Var(&opts.MaxEvents, "max-events", defaultMaxEvents, "refuse scenarios estimated to need more events than `N`")
	noFiles := cobra.ShellCompDirectiveNoFileComp
	var lanes []string
	for _, l := range conform.ScriptLanes() {
		lanes = append(lanes, l.String())
	}
	_ = cmd.RegisterFlagCompletionFunc("print-script", cobra.FixedCompletions(conform.ScriptNames(), noFiles))
	_ = cmd.RegisterFlagCompletionFunc("lane", cobra.FixedCompletions(lanes, noFiles))
	_ = cmd.RegisterFlagCompletionFunc("clock", cobra.FixedCompletions(conform.ClockNames(), noFiles))
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json"}, noFiles))
	return cmd
}

func checkConformFlags(opts *conformOptions) error {
	var errs []error
	if opts.PrintScript != "" {
		if _, ok := conform.ScriptNamed(opts.PrintScript); !ok {
			errs = append(errs, fmt.Errorf("--print-script: unknown script %q (want one of %v)", opts.PrintScript, conform.ScriptNames()))
		}
		return badInput(errors.Join(errs...))
	}
	if opts.Scenario == "" {
		errs = append(errs, errors.New("conform: missing the scenario (a file or a built-in's name)"))
	}
	if opts.Redis == "" {
		errs = append(errs, errors.New("--redis: missing the address of the Redis to check against, host:port"))
	}
	if opts.ScriptFile != "" && opts.Lane == "" {
		errs = append(errs, errors.New("--script: say which lane the script implements with --lane"))
	}
	if _, ok := conform.ParseClock(opts.Clock); !ok {
		errs = append(errs, fmt.Errorf("--clock: unknown clock %q (want one of %v)", opts.Clock, conform.ClockNames()))
	}
	if opts.Lane != "" {
		if _, ok := sim.ParseLane(opts.Lane); !ok {
			errs = append(errs, fmt.Errorf("--lane: unknown lane %q (want one of %v)", opts.Lane, sim.LaneNames()))
		}
	}
	switch {
	case math.IsNaN(opts.Scale) || opts.Scale < 1 || opts.Scale > conform.MaxScale:
		errs = append(errs, fmt.Errorf("--time-scale: must be between 1 and %d, got %g", int64(conform.MaxScale), opts.Scale))
	case opts.Clock == "server" && opts.Scale != 1:
		errs = append(errs, fmt.Errorf("--time-scale: the server clock runs in real time: must be 1, got %g", opts.Scale))
	}
	if opts.Format != "text" && opts.Format != "json" {
		errs = append(errs, fmt.Errorf("--format: unknown format %q (want text or json)", opts.Format))
	}
	if opts.Tolerance < 0 {
		errs = append(errs, fmt.Errorf("--tolerance: must not be negative, got %v", opts.Tolerance))
	}
	if opts.Show < 0 || opts.Show > maxShow {
		errs = append(errs, fmt.Errorf("--show: must be between 0 and %d, got %d", maxShow, opts.Show))
	}
	if opts.Runs < 1 || opts.Runs > maxRuns {
		errs = append(errs, fmt.Errorf("--runs: must be between 1 and %d, got %d", maxRuns, opts.Runs))
	}
	if opts.MaxEvents <= 0 {
		errs = append(errs, fmt.Errorf("--max-events: must be positive, got %d", opts.MaxEvents))
	}
	if opts.MaxWall <= 0 {
		errs = append(errs, fmt.Errorf("--max-wall: must be positive, got %v", opts.MaxWall))
	}
	for _, n := range opts.Replicas {
		if n < 1 || n > maxReplicas {
			errs = append(errs, fmt.Errorf("--replicas: each must be between 1 and %d, got %d", maxReplicas, n))
		}
	}
	return badInput(errors.Join(errs...))
}

// maxScriptSize is the largest --script file read: far above any limiter script.
const maxScriptSize = 1 << 20

// maxShow and maxRuns bound --show and --runs: far above what anyone reads or
// waits for; a race run takes the scenario's length of real time, twice.
const (
	maxShow = 1_000_000
	maxRuns = 1000
)

func conformRun(cmd *cobra.Command, opts *conformOptions) error {
	if opts.PrintScript != "" {
		s, _ := conform.ScriptNamed(opts.PrintScript)
		_, err := io.WriteString(opts.Out, s.Source)
		return err
	}
	s, err := run.Load(opts.Scenario)
	if err != nil {
		return badInput(err)
	}
	if s.Config == nil {
		return badInputf("%s: conform replays a comparison of lanes, not a contention study", s.File)
	}
	if err := s.CheckBudget(opts.MaxEvents); err != nil {
		return badInput(err)
	}
	if err := conform.Suitable(s.File, s.Config); err != nil {
		return badInput(err)
	}
	if err := conform.CheckTolerance(s.Config.Limits[0].Policy, opts.Tolerance); err != nil {
		return badInputf("--tolerance: %s: %v", s.File, err)
	}
	only, _ := sim.ParseLane(opts.Lane)
	if opts.Lane == "" {
		only = sim.LaneDefault
	}
	lanes, err := conform.ConformLanes(s.Config, only)
	if err != nil {
		return badInputf("%s: %v", s.File, err)
	}
	checkOpts, err := conformCheckOptions(opts)
	if err != nil {
		return err
	}
	ctx := cmd.Context()
	traffic, err := conform.Traffic(ctx, *s.Config, lanes, opts.MaxEvents)
	if err != nil {
		return err
	}
	if err := conform.CheckExact(traffic); err != nil {
		return badInputf("%s: %v", s.File, err)
	}
	if wall := conformWall(traffic, opts); wall > opts.MaxWall {
		return badInputf("%s: the check would take about %v of real time at time scale %g (%d race runs included), over --max-wall %v; raise --time-scale or --max-wall",
			s.File, wall.Round(time.Second), opts.Scale, 2*opts.Runs*len(opts.Replicas), opts.MaxWall)
	}
	redis.SetLogger(quietRedis{}) // a store error is told in the results, once
	redisOpts := &redis.Options{Addr: opts.Redis}
	checks, err := conform.Check(ctx, redisOpts, traffic, checkOpts)
	if err != nil {
		return fmt.Errorf("conform: redis at %s: %w", opts.Redis, err)
	}
	result := conform.Run{Scenario: s.Name, Seed: s.Config.Seed, Redis: opts.Redis, Options: checkOpts, Checks: checks}
	for _, n := range opts.Replicas {
		race, err := conformRace(cmd, opts, n, s.Config, lanes, redisOpts, checkOpts.Replay)
		if err != nil {
			return err
		}
		result.Races = append(result.Races, race)
	}
	if err := writeConform(opts, result); err != nil {
		return err
	}
	var failed []error
	for _, c := range checks {
		if c.Unexplained == 0 && c.StoreErrors == 0 {
			continue
		}
		invalid := ""
		if c.Invalid > 0 {
			invalid = fmt.Sprintf(" (%d of them answers outside the calling convention; the first: %s)", c.Invalid, c.InvalidReason)
		}
		failed = append(failed, fmt.Errorf("conform: %s: %d attempts decided otherwise than the exact algorithm at the same instants%s, %d store errors",
			c.Lane, c.Unexplained, invalid, c.StoreErrors))
	}
	return errors.Join(failed...)
}

func writeConform(opts *conformOptions, r conform.Run) error {
	if opts.Format == "json" {
		return conform.WriteJSON(opts.Out, r)
	}
	fmt.Fprintf(opts.Out, "conform: %s (seed %d) against the Redis at %s\n", r.Scenario, r.Seed, r.Redis)
	if err := conform.WriteChecks(opts.Out, r.Checks, r.Options); err != nil {
		return err
	}
	for _, race := range r.Races {
		fmt.Fprintln(opts.Out)
		if err := conform.WriteRace(opts.Out, race); err != nil {
			return err
		}
	}
	return nil
}

// conformWall is about how long the check takes in real time: the lanes at
// once, then each race run twice (atomic and racy), every one as long as the
// last attempt's instant over the time scale.
func conformWall(traffic []conform.LaneTraffic, opts *conformOptions) time.Duration {
	var last time.Duration
	for _, lt := range traffic {
		if n := len(lt.Attempts); n > 0 {
			last = max(last, lt.Attempts[n-1].At)
		}
	}
	rounds := 1 + 2*float64(opts.Runs)*float64(len(opts.Replicas))
	if wall := float64(last) / opts.Scale * rounds; wall < float64(math.MaxInt64) {
		return time.Duration(wall)
	}
	return math.MaxInt64
}

// quietRedis keeps go-redis's own log (dial failures) off stderr.
type quietRedis struct{}

func (quietRedis) Printf(context.Context, string, ...any) {}

func conformCheckOptions(opts *conformOptions) (conform.CheckOptions, error) {
	clock, _ := conform.ParseClock(opts.Clock)
	prefix := opts.Prefix
	if prefix == "" {
		prefix = fmt.Sprintf("rlsim:conform:%d:", time.Now().UnixNano())
	}
	co := conform.CheckOptions{
		Replay:    conform.Replay{Clock: clock, Scale: opts.Scale, Prefix: prefix},
		Tolerance: opts.Tolerance,
		Shown:     opts.Show,
	}
	if opts.ScriptFile != "" {
		src, err := readScript(opts.ScriptFile)
		if err != nil {
			return co, badInput(err)
		}
		co.Script = conform.NewAtomic(opts.ScriptFile, src)
	}
	return co, nil
}

func readScript(path string) (string, error) {
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return "", fmt.Errorf("--script: %w", err)
	case !st.Mode().IsRegular():
		return "", fmt.Errorf("--script: %s is not a file", path)
	case st.Size() > maxScriptSize:
		return "", fmt.Errorf("--script: %s is %d bytes, over the %d a limiter script may have", path, st.Size(), maxScriptSize)
	}
	src, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("--script: %w", err)
	}
	return string(src), nil
}

// maxReplicas bounds --replicas: each replica holds a pool of connections.
const maxReplicas = 64

// conformRace measures the race of n replicas on the first lane with racy scripts.
func conformRace(cmd *cobra.Command, opts *conformOptions, n int, cfg *sim.Config, lanes []sim.LaneKind, redisOpts *redis.Options, replay conform.Replay) (conform.Race, error) {
	lane := sim.LaneDefault
	for _, l := range lanes {
		if _, ok := conform.ScriptNamed(l.String() + "_racy_write"); ok {
			lane = l
			break
		}
	}
	if lane == sim.LaneDefault {
		return conform.Race{}, badInputf("--replicas: none of the lanes checked has racy scripts (want one of fixed_window, sliding_window_counter, token_bucket, gcra)")
	}
	replay.Clock = conform.ClockDriver
	race, err := conform.MeasureRace(cmd.Context(), redisOpts, *cfg, conform.RaceOptions{
		Lane: lane, Replicas: n, Runs: opts.Runs, Replay: replay, MaxEvents: opts.MaxEvents,
	})
	if err != nil {
		return conform.Race{}, fmt.Errorf("conform: race: redis at %s: %w", opts.Redis, err)
	}
	return race, nil
}
