package conform

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/sim"
)

// Flags are the flags of rlsim conform, as given: Check refuses bad ones,
// naming each, and RunFlags runs the check they ask for.
type Flags struct {
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

// Check refuses bad flags, all at once, each named.
func (opts *Flags) Check() error {
	var errs []error
	if opts.PrintScript != "" {
		if _, ok := ScriptNamed(opts.PrintScript); !ok {
			errs = append(errs, fmt.Errorf("--print-script: unknown script %q (want one of %v)", opts.PrintScript, ScriptNames()))
		}
		return run.BadInput(errors.Join(errs...))
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
	if _, ok := ParseClock(opts.Clock); !ok {
		errs = append(errs, fmt.Errorf("--clock: unknown clock %q (want one of %v)", opts.Clock, ClockNames()))
	}
	if opts.Lane != "" {
		if _, ok := sim.ParseLane(opts.Lane); !ok {
			errs = append(errs, fmt.Errorf("--lane: unknown lane %q (want one of %v)", opts.Lane, sim.LaneNames()))
		}
	}
	switch {
	case math.IsNaN(opts.Scale) || opts.Scale < 1 || opts.Scale > MaxScale:
		errs = append(errs, fmt.Errorf("--time-scale: must be between 1 and %d, got %g", int64(MaxScale), opts.Scale))
	case opts.Clock == "server" && opts.Scale != 1:
		errs = append(errs, fmt.Errorf("--time-scale: the server clock runs in real time: must be 1, got %g", opts.Scale))
	}
	if opts.Format != "text" && opts.Format != "json" {
		errs = append(errs, fmt.Errorf("--format: unknown format %q (want text or json)", opts.Format))
	}
	if opts.Tolerance < 0 {
		errs = append(errs, fmt.Errorf("--tolerance: must not be negative, got %v", opts.Tolerance))
	}
	if opts.Show < 0 || opts.Show > MaxShow {
		errs = append(errs, fmt.Errorf("--show: must be between 0 and %d, got %d", MaxShow, opts.Show))
	}
	if opts.Runs < 1 || opts.Runs > MaxRuns {
		errs = append(errs, fmt.Errorf("--runs: must be between 1 and %d, got %d", MaxRuns, opts.Runs))
	}
	if opts.MaxEvents <= 0 {
		errs = append(errs, fmt.Errorf("--max-events: must be positive, got %d", opts.MaxEvents))
	}
	if opts.MaxWall <= 0 {
		errs = append(errs, fmt.Errorf("--max-wall: must be positive, got %v", opts.MaxWall))
	}
	for _, n := range opts.Replicas {
		if n < 1 || n > MaxReplicas {
			errs = append(errs, fmt.Errorf("--replicas: each must be between 1 and %d, got %d", MaxReplicas, n))
		}
	}
	return run.BadInput(errors.Join(errs...))
}

// maxScriptSize is the largest --script file read: far above any limiter script.
const maxScriptSize = 1 << 20

// MaxShow and MaxRuns bound --show and --runs: far above what anyone reads or
// waits for; a race run takes the scenario's length of real time, twice.
const (
	MaxShow = 1_000_000
	MaxRuns = 1000
)

// RunFlags checks the scenario opts names against the Redis opts names and writes
// the result to out in opts.Format, or with opts.PrintScript writes that
// reference script alone (Check knows it). The error lists every lane with an
// unexplained difference or a store error; it is an *run.InputError on bad input.
func RunFlags(ctx context.Context, out io.Writer, opts *Flags) error {
	if opts.PrintScript != "" {
		s, _ := ScriptNamed(opts.PrintScript)
		_, err := io.WriteString(out, s.Source)
		return err
	}
	s, err := run.Load(opts.Scenario)
	if err != nil {
		return run.BadInput(err)
	}
	if s.Config == nil {
		return run.BadInputf("%s: conform replays a comparison of lanes, not a contention study", s.File)
	}
	if err := s.CheckBudget(opts.MaxEvents); err != nil {
		return run.BadInput(err)
	}
	if err := Suitable(s.File, s.Config); err != nil {
		return run.BadInput(err)
	}
	if err := CheckTolerance(s.Config.Limits[0].Policy, opts.Tolerance); err != nil {
		return run.BadInputf("--tolerance: %s: %v", s.File, err)
	}
	only, _ := sim.ParseLane(opts.Lane)
	if opts.Lane == "" {
		only = sim.LaneDefault
	}
	lanes, err := ConformLanes(s.Config, only)
	if err != nil {
		return run.BadInputf("%s: %v", s.File, err)
	}
	checkOpts, err := checkOptions(opts)
	if err != nil {
		return err
	}
	traffic, err := Traffic(ctx, *s.Config, lanes, opts.MaxEvents)
	if err != nil {
		return err
	}
	if err := CheckExact(traffic); err != nil {
		return run.BadInputf("%s: %v", s.File, err)
	}
	if wall := wallTime(traffic, opts); wall > opts.MaxWall {
		return run.BadInputf("%s: the check would take about %v of real time at time scale %g (%d race runs included), over --max-wall %v; raise --time-scale or --max-wall",
			s.File, wall.Round(time.Second), opts.Scale, 2*opts.Runs*len(opts.Replicas), opts.MaxWall)
	}
	redis.SetLogger(quietRedis{}) // a store error is told in the results, once
	redisOpts := &redis.Options{Addr: opts.Redis}
	checks, err := Check(ctx, redisOpts, traffic, checkOpts)
	if err != nil {
		return fmt.Errorf("conform: redis at %s: %w", opts.Redis, err)
	}
	result := Run{Scenario: s.Name, Seed: s.Config.Seed, Redis: opts.Redis, Options: checkOpts, Checks: checks}
	for _, n := range opts.Replicas {
		race, err := raceOf(ctx, opts, n, s.Config, lanes, redisOpts, checkOpts.Replay)
		if err != nil {
			return err
		}
		result.Races = append(result.Races, race)
	}
	if err := write(out, opts.Format, result); err != nil {
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
	return run.CheckFailed(errors.Join(failed...))
}

// write writes r in format: text or json.
func write(out io.Writer, format string, r Run) error {
	if format == "json" {
		return WriteJSON(out, r)
	}
	fmt.Fprintf(out, "conform: %s (seed %d) against the Redis at %s\n", r.Scenario, r.Seed, r.Redis)
	if err := WriteChecks(out, r.Checks, r.Options); err != nil {
		return err
	}
	for _, race := range r.Races {
		fmt.Fprintln(out)
		if err := WriteRace(out, race); err != nil {
			return err
		}
	}
	return nil
}

// wallTime is about how long the check takes in real time: the lanes at
// once, then each race run twice (atomic and racy), every one as long as the
// last attempt's instant over the time scale.
func wallTime(traffic []LaneTraffic, opts *Flags) time.Duration {
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

func checkOptions(opts *Flags) (CheckOptions, error) {
	clock, _ := ParseClock(opts.Clock)
	prefix := opts.Prefix
	if prefix == "" {
		prefix = fmt.Sprintf("rlsim:conform:%d:", time.Now().UnixNano())
	}
	co := CheckOptions{
		Replay:    Replay{Clock: clock, Scale: opts.Scale, Prefix: prefix},
		Tolerance: opts.Tolerance,
		Shown:     opts.Show,
	}
	if opts.ScriptFile != "" {
		src, err := readScript(opts.ScriptFile)
		if err != nil {
			return co, run.BadInput(err)
		}
		co.Script = NewAtomic(opts.ScriptFile, src)
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

// MaxReplicas bounds --replicas: each replica holds a pool of connections.
const MaxReplicas = 64

// raceOf measures the race of n replicas on the first lane with racy scripts.
func raceOf(ctx context.Context, opts *Flags, n int, cfg *sim.Config, lanes []sim.LaneKind, redisOpts *redis.Options, replay Replay) (Race, error) {
	lane := sim.LaneDefault
	for _, l := range lanes {
		if _, ok := ScriptNamed(l.String() + "_racy_write"); ok {
			lane = l
			break
		}
	}
	if lane == sim.LaneDefault {
		return Race{}, run.BadInputf("--replicas: none of the lanes checked has racy scripts (want one of fixed_window, sliding_window_counter, token_bucket, gcra)")
	}
	replay.Clock = ClockDriver
	race, err := MeasureRace(ctx, redisOpts, *cfg, RaceOptions{
		Lane: lane, Replicas: n, Runs: opts.Runs, Replay: replay, MaxEvents: opts.MaxEvents,
	})
	if err != nil {
		return Race{}, fmt.Errorf("conform: race: redis at %s: %w", opts.Redis, err)
	}
	return race, nil
}
