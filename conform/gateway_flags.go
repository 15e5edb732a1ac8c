package conform

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/rlsim/rlsim/run"
)

// GatewayFlags are the flags of rlsim conform --http, as given: Check refuses
// bad ones, naming each, and RunGateway runs the check they ask for.
type GatewayFlags struct {
	Scenario  string
	URL       string // --http
	Lane      string // the scenario's lane whose rule is the reference, by name
	KeyHeader string
	Path      string
	Tolerance time.Duration
	AccessLog string
	Format    string
	Show      int
	Scale     float64
	MaxEvents int64
	MaxWall   time.Duration
	// Conflicts are the flags given that --http does not take ("--redis").
	Conflicts []string
	// Prefix starts every key and request id sent; empty means one new per run.
	Prefix string
}

// Check refuses bad flags, all at once, each named.
func (opts *GatewayFlags) Check() error {
	var errs []error
	if opts.Scenario == "" {
		errs = append(errs, errors.New("conform: missing the scenario (a file or a built-in's name)"))
	}
	for _, f := range opts.Conflicts {
		why := "not with --http"
		if f == "--redis" {
			why = "either --redis or --http: a check runs against one of them"
		}
		errs = append(errs, fmt.Errorf("%s: %s", f, why))
	}
	if _, err := gatewayURL(opts.URL); err != nil {
		errs = append(errs, err)
	}
	if opts.Lane == "" {
		errs = append(errs, errors.New("--lane: say which lane of the scenario the gateway is held to (its name, as in the scenario's lanes)"))
	}
	if !headerName(opts.KeyHeader) {
		errs = append(errs, fmt.Errorf("--key-header: %q is not an HTTP header name", opts.KeyHeader))
	}
	if !strings.HasPrefix(opts.Path, "/") || strings.ContainsAny(opts.Path, " \t\r\n#") {
		errs = append(errs, fmt.Errorf("--path: %q is not a path starting with /", opts.Path))
	}
	if opts.Scale != 1 {
		errs = append(errs, fmt.Errorf("--time-scale: a gateway limits on its own wall clock: must be 1 with --http, got %g", opts.Scale))
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
	if opts.MaxEvents <= 0 {
		errs = append(errs, fmt.Errorf("--max-events: must be positive, got %d", opts.MaxEvents))
	}
	if opts.MaxWall <= 0 {
		errs = append(errs, fmt.Errorf("--max-wall: must be positive, got %v", opts.MaxWall))
	}
	return run.BadInput(errors.Join(errs...))
}

// headerName reports whether s is a token (RFC 9110 §5.1).
func headerName(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}

// GatewayRun is one conform --http run, as WriteGatewayJSON writes it.
type GatewayRun struct {
	Scenario  string         `json:"scenario"`
	Seed      uint64         `json:"seed"`
	URL       string         `json:"url"`
	Path      string         `json:"path"`
	KeyHeader string         `json:"key_header"`
	AccessLog string         `json:"access_log,omitempty"`
	Lanes     []GatewayCheck `json:"lanes"`
}

// RunGateway sends the traffic of the lane opts names to the gateway at
// opts.URL and writes the comparison to out in opts.Format. The error lists
// the requests decided otherwise beyond the tolerance and those with no
// decision; it is an *run.InputError on bad input (told before any request),
// an *run.UnfinishedError when the gateway cannot be reached or went away
// (nothing written).
func RunGateway(ctx context.Context, out io.Writer, opts *GatewayFlags) error {
	s, err := run.Load(opts.Scenario)
	if err != nil {
		return run.BadInput(err)
	}
	if s.Config == nil {
		return run.BadInputf("%s: conform replays a comparison of lanes, not a contention study", s.File)
	}
	cfg := s.Config
	if err := s.CheckBudget(opts.MaxEvents); err != nil {
		return run.BadInput(err)
	}
	if err := Suitable(s.File, cfg); err != nil {
		return run.BadInput(err)
	}
	policy := cfg.Limits[0].Policy
	if err := CheckTolerance(policy, opts.Tolerance); err != nil {
		return run.BadInputf("--tolerance: %s: %v", s.File, err)
	}
	names := cfg.LaneNames()
	lane := -1
	for i, n := range names {
		if n == opts.Lane {
			lane = i
		}
	}
	if lane < 0 {
		return run.BadInputf("--lane: %s has no lane named %s (its lanes: %s)", s.File, opts.Lane, strings.Join(names, ", "))
	}
	attempts, rule, err := GatewayTraffic(ctx, *cfg, lane, opts.MaxEvents)
	if err != nil {
		if run.IsBadInput(err) || ctx.Err() != nil {
			return err
		}
		return run.BadInputf("--lane: %s: %v", s.File, err)
	}
	align := gatewayAlign(policy.Window)
	var last time.Duration
	for _, a := range attempts {
		last = max(last, a.At)
	}
	if wall := last + align; wall > opts.MaxWall {
		return run.BadInputf("%s: the check would take about %v of real time, over --max-wall %v; raise --max-wall",
			s.File, wall.Round(time.Second), opts.MaxWall)
	}
	prefix := opts.Prefix
	if prefix == "" {
		// Short: a gateway may keep a key's first bytes only (HAProxy's
		// stick-table type string: 32 unless len says more).
		prefix = strconv.FormatInt(time.Now().UnixMilli(), 36) + "-"
	}
	kind := cfg.LanesRun()[lane]
	c, err := CheckGateway(ctx, opts.URL, attempts, rule, GatewayOptions{
		Path: opts.Path, KeyHeader: opts.KeyHeader, KeyPrefix: prefix, IDPrefix: prefix + "r",
		Tolerance: opts.Tolerance, Shown: opts.Show, RefusalStatus: cfg.RefusalStatus(lane),
		AccessLog: opts.AccessLog, Align: align, Timeout: 10*time.Second + policy.Window,
	})
	if err != nil {
		return err
	}
	c.Lane, c.Product = names[lane], kind.Info().Product
	result := GatewayRun{Scenario: s.Name, Seed: cfg.Seed, URL: opts.URL, Path: opts.Path, KeyHeader: opts.KeyHeader,
		AccessLog: opts.AccessLog, Lanes: []GatewayCheck{c}}
	if opts.Format == "json" {
		err = WriteGatewayJSON(out, result)
	} else {
		err = WriteGateway(out, result)
	}
	if err != nil {
		return err
	}
	return gatewayFailures(result.Lanes)
}

// gatewayAlign is the multiple of the Unix clock a schedule starts at: the
// limit's window when it divides a minute (so that windows aligned to the
// epoch, as Kong's or a Redis INCR key's of the Unix second, align with the
// lane's), else a second (nginx's and HAProxy's ms clocks align with it too).
func gatewayAlign(window time.Duration) time.Duration {
	if window > 0 && window <= time.Minute && time.Minute%window == 0 && window%time.Millisecond == 0 {
		return window
	}
	return time.Second
}

// gatewayFailures is the error of lanes with differences beyond the tolerance
// or requests without a decision.
func gatewayFailures(lanes []GatewayCheck) error {
	var failed []error
	for _, c := range lanes {
		if c.Differed > 0 || c.NoDecision > 0 {
			failed = append(failed, fmt.Errorf("conform: %s: %d requests decided otherwise than the lane beyond the tolerance, %d with no decision",
				c.Lane, c.Differed, c.NoDecision))
		}
	}
	return run.CheckFailed(errors.Join(failed...))
}
