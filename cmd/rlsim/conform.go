package main

import (
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/conform"
	"github.com/rlsim/rlsim/run"
)

type conformOptions struct {
	Out io.Writer
	conform.Flags
	// HTTP, KeyHeader, Path and AccessLog are --http's; with --http the run is
	// Gateway's, built from these and the shared flags.
	HTTP, KeyHeader, Path, AccessLog string
	Gateway                          *conform.GatewayFlags
}

// NewCmdConform builds "rlsim conform". runF, when not nil, replaces the run itself (tests).
func NewCmdConform(out io.Writer, runF func(*conformOptions) error) *cobra.Command {
	opts := &conformOptions{Out: out}
	cmd := &cobra.Command{
		Use:   "conform (--redis ADDR | --http URL --lane LANE) FILE|NAME",
		Short: "Hold limiter scripts on a real Redis, or a real HTTP gateway, to the exact lanes",
		Long: `Replay a scenario's traffic in real time against limiter scripts on a real Redis
and compare their decisions, request for request, with the exact lanes: for each
lane with a script (fixed_window, sliding_log, sliding_window_counter,
token_bucket, gcra), the attempts the exact lane met are sent at their instants
(scaled by --time-scale) and every verdict and Retry-After is compared. The
first differences beyond --tolerance are shown in full.

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
(Redis could not be reached or went away).

--http URL --lane LANE holds a running HTTP gateway (nginx, HAProxy, Envoy,
Kong, Traefik, ...) to one lane of the scenario instead: the attempts the lane
met are sent, open loop, at their instants in real time (--time-scale 1), each
a GET of URL + --path with the first limit's key in --key-header and an
X-Request-Id, and the gateway's verdict (2xx admitted; the lane's refusal
status, 429 or 503 refused; anything else, or no answer, no decision) is
compared with the lane's rule fed the instants the requests reached the
gateway: the arrivals --access-log gives (lines with rid=<X-Request-Id>
t=<Unix seconds> [rt=<seconds taken>], see docs/conform.md), else the sends.
A verdict the lane gives at the instant ± --tolerance is within it. The
schedule starts on a whole window (or second) of the Unix clock; keys and
request ids start with a prefix of the run's own. Exit status: 0 when every
request agreed or within tolerance; 1 when one differed or got no decision; 2
on bad input (told before any request is sent); 3 when the gateway could not
be reached (a TCP connection, before any request) or went away (requests
without an answer, and one after the run gets none either; nothing written).`,
		Args:              cobra.MaximumNArgs(1),
		ValidArgsFunction: completeScenarioNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Scenario = args[0]
			}
			if opts.HTTP != "" {
				opts.Gateway = gatewayFlags(cmd, opts)
				if err := opts.Gateway.Check(); err != nil {
					return err
				}
				if runF != nil {
					return runF(opts)
				}
				return conform.RunGateway(cmd.Context(), opts.Out, opts.Gateway)
			}
			if err := httpOnly(cmd); err != nil {
				return run.BadInput(errors.Join(err, opts.Check()))
			}
			if err := opts.Check(); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return conform.RunFlags(cmd.Context(), opts.Out, &opts.Flags)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Redis, "redis", "", "the Redis to run the limiter scripts on, `host:port`")
	f.StringVar(&opts.HTTP, "http", "", "hold the HTTP gateway at `URL` to one lane (with --lane) instead of scripts on Redis")
	f.StringVar(&opts.KeyHeader, "key-header", "X-Key", "with --http, the `HEADER` carrying each request's key (the first limit's)")
	f.StringVar(&opts.Path, "path", "/", "with --http, the `PATH` requested, appended to the URL")
	f.StringVar(&opts.AccessLog, "access-log", "", "with --http, the gateway's access log `FILE`: its arrivals are the instants compared (docs/conform.md)")
	f.StringVar(&opts.PrintScript, "print-script", "", "write the reference script `NAME` and exit")
	f.StringVar(&opts.ScriptFile, "script", "", "check your own limiter script `FILE` (with --lane)")
	f.StringVar(&opts.Lane, "lane", "", "check only this `LANE` (with --script, the lane your script implements; with --http, the scenario's lane the gateway is held to)")
	f.StringVar(&opts.Clock, "clock", "driver", "where the script reads the time: scheduled, driver or server")
	f.Float64Var(&opts.Scale, "time-scale", 10, fmt.Sprintf("run scenario time `S` times faster than real time, 1 to %d (with --http: 1, the default there)", int64(conform.MaxScale)))
	f.DurationVar(&opts.Tolerance, "tolerance", 50*time.Millisecond, "clock skew and round trips allowed, in scenario time; below the limit's window")
	f.IntVar(&opts.Show, "show", 5, fmt.Sprintf("differences shown in full per lane, up to %d", conform.MaxShow))
	f.IntSliceVar(&opts.Replicas, "replicas", nil, fmt.Sprintf("also measure the race of `N` replicas (1 to %d); several, as 1,4,8, one race each", conform.MaxReplicas))
	f.IntVar(&opts.Runs, "runs", 3, fmt.Sprintf("runs of the race, seed after seed, up to %d", conform.MaxRuns))
	formatFlag(f, &opts.Format, "text", "output `format`: text or json (docs/conform.md)")
	f.DurationVar(&opts.MaxWall, "max-wall", 10*time.Minute, "refuse a check that would take longer than `D` of real time")
	f.Int64Var(&opts.MaxEvents, "max-events", defaultMaxEvents, "refuse scenarios estimated to need more events than `N`")
	noFiles := cobra.ShellCompDirectiveNoFileComp
	_ = cmd.RegisterFlagCompletionFunc("print-script", cobra.FixedCompletions(conform.ScriptNames(), noFiles))
	_ = cmd.RegisterFlagCompletionFunc("lane", cobra.FixedCompletions(conform.ScriptLaneNames(), noFiles))
	_ = cmd.RegisterFlagCompletionFunc("clock", cobra.FixedCompletions(conform.ClockNames(), noFiles))
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json"}, noFiles))
	return cmd
}

// gatewayFlags are the flags of a check against a gateway (--http): the shared
// ones as given, --time-scale 1 unless set, and every flag set that --http
// does not take, for Check to refuse.
func gatewayFlags(cmd *cobra.Command, opts *conformOptions) *conform.GatewayFlags {
	g := &conform.GatewayFlags{Scenario: opts.Scenario, URL: opts.HTTP, Lane: opts.Lane, KeyHeader: opts.KeyHeader,
		Path: opts.Path, Tolerance: opts.Tolerance, AccessLog: opts.AccessLog, Format: opts.Format, Show: opts.Show,
		Scale: opts.Scale, MaxEvents: opts.MaxEvents, MaxWall: opts.MaxWall}
	if !cmd.Flags().Changed("time-scale") {
		g.Scale = 1
	}
	for _, name := range []string{"redis", "print-script", "script", "clock", "replicas", "runs"} {
		if cmd.Flags().Changed(name) {
			g.Conflicts = append(g.Conflicts, "--"+name)
		}
	}
	return g
}

// httpOnly refuses the flags of --http given without it.
func httpOnly(cmd *cobra.Command) error {
	var errs []error
	for _, name := range []string{"key-header", "path", "access-log"} {
		if cmd.Flags().Changed(name) {
			errs = append(errs, fmt.Errorf("--%s: only with --http", name))
		}
	}
	return errors.Join(errs...)
}
