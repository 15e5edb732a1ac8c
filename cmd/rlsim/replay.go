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

	"github.com/rlsim/rlsim/importer"
	"github.com/rlsim/rlsim/replay"
)

type replayOptions struct {
	Out      io.Writer
	Progress io.Writer
	Err      io.Writer // warnings (stderr)
	Ctx      context.Context

	Args   []string
	OutDir string
	replay.Flags
	given func(flag string) bool // whether a flag was set (--to-scenario refuses the replay's own)
}

// NewCmdReplay builds "rlsim replay". runF, when not nil, replaces the replay itself (tests).
func NewCmdReplay(out, progress io.Writer, runF func(*replayOptions) error) *cobra.Command {
	opts := &replayOptions{Out: out, Progress: progress}
	cmd := &cobra.Command{
		Use:   "replay LOG...",
		Short: "Replay access logs through every lane in shadow: whom each limit would refuse",
		Long: `Read access logs (nginx/Apache combined, any nginx log_format with
--nginx-format, Envoy's default or --envoy-format, Envoy json_format, HAProxy
httplog, AWS ALB and Classic ELB, JSON lines or CSV with a header; gzip read
directly; - is stdin) and replay every request's time and key through the six
per-key lanes in shadow: nothing is refused, so the traffic stays what it was.
For each limit and lane: requests that would have been refused, keys ever
refused, the top key with its peak requests per window, and the
legitimate-looking keys caught (at most --legit-below of the limit per window in
90% of the windows they were active). Lines up to --late behind the latest are
put back in order; later ones, and lines that do not parse, are counted, never
fatal unless --strict; but a log in which no line parses is exit 2, and more
than 10% bad lines a warning.

Keys: ip, ip/24 (IPv6: /64), method, path, endpoint (method and normalised
path), user, global, field:NAME (any field of the format: a JSON or CSV field,
an nginx variable such as http_x_api_key, an Envoy operator such as
req.x-api-key, an ALB field such as client:port), joined by + (ip+endpoint).

Product lanes (--lane nginx, or a --scenario's or --config's lanes with their
settings) decide as in rlsim run; a line that would wait is counted delayed.
--replicas N replays through N replicas (--routing, --state; a scenario's
topology), with the fleet's peak, the busiest replica and what it let through
beyond the limit.`,
		Example: `  rlsim replay access.log.gz --limit 'key=ip limit=100/1m burst=20'
  rlsim replay api.jsonl --fields time=ts,ip=remote_addr \
      --limit 'key=field:api_key limit=10/1s'
  rlsim replay access.log \
      --nginx-format '$remote_addr [$time_local] "$request" "$http_x_api_key"' \
      --limit 'key=field:http_x_api_key limit=10/1s'
  rlsim replay access.log --limit 'key=ip limit=100/1m' --lane nginx \
      --lane kong --replicas 3`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args, opts.Ctx, opts.Err = args, cmd.Context(), cmd.ErrOrStderr()
			if cmd.Flags().Changed("replicas") && opts.Replicas == 0 {
				opts.Replicas = -1 // given, and out of range (0 is "not given")
			}
			for name, v := range map[string]any{"replicas": &opts.Replicas, "routing": &opts.Routing, "hash-key": &opts.HashKey, "state": &opts.State, "seed": &opts.Seed, "from": &opts.From} {
				if !cmd.Flags().Changed(name) { // not given: the scenario's, else the default
					switch p := v.(type) {
					case *int:
						*p = 0
					case *string:
						*p = ""
					case *uint64:
						*p = 0
					}
				}
			}
			opts.given = cmd.Flags().Changed
			if runF != nil {
				return runF(opts)
			}
			return replayRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Scenario, "scenario", "", "take the limits and lanes from a scenario `FILE|NAME` (before any --limit; api_key and tenant keys read those fields)")
	f.StringArrayVar(&opts.Limits, "limit", nil, "a limit to replay, `SPEC` 'key=ip limit=100/1m burst=20 name=N endpoint=/login'; repeatable")
	f.StringArrayVar(&opts.Lanes, "lane", nil, "replay only this `lane` (default all six per-key lanes; a product lane such as nginx, or a --scenario lane by name); repeatable")
	f.StringVar(&opts.LogFormat, "log-format", "auto", "the logs' `format`: "+strings.Join(replay.Formats, ", "))
	f.StringVar(&opts.NginxFormat, "nginx-format", "", "read nginx logs written by this log_format `STRING`, or the name of one in --config ('$remote_addr - [$time_local] \"$request\" $http_x_api_key'); implies --log-format nginx")
	f.StringVar(&opts.EnvoyFormat, "envoy-format", "", "read Envoy logs written by this text_format `STRING` of %COMMAND% operators (default: Envoy's default format); implies --log-format envoy")
	f.StringVar(&opts.Fields, "fields", "", "the fields holding a request's parts, `time=ts,ip=remote_addr,method=m,path=p,user=u` (JSON/CSV names, or another format's fields)")
	f.StringVar(&opts.TZ, "tz", "UTC", "the time `zone` of JSON/CSV times written without an offset")
	f.DurationVar(&opts.Late, "late", 5*time.Second, "replay lines up to `D` behind the latest in their place; count later ones")
	f.BoolVar(&opts.Strict, "strict", false, "stop at the first line that does not parse")
	f.Float64Var(&opts.LegitBelow, "legit-below", 0.5, "a key looks legitimate at or below this `share` of the limit per window")
	f.IntVar(&opts.Top, "top", 10, "keys listed per lane and limit in JSON")
	formatFlag(f, &opts.Format, "text", "output `format`: text, json, csv")
	f.StringVar(&opts.OutDir, "out", "", "also write replay.txt, .json, .csv, report.html and PNG plots into `DIR` (a report folder)")
	f.StringVar(&opts.Vary, "vary", "", "replay limits[N].limit or limits[N].burst at each of `PATH=V1,V2 or PATH=FROM..TO/STEP`, in the same pass")
	f.StringVar(&opts.Find, "find", "", "with --vary, `min PATH`: each lane's smallest value meeting every --where (default: refusing no key at or below the p99 of per-key peaks)")
	f.StringVar(&opts.Config, "config", "", "take the limits and product lanes from a product's config `FILE` (nginx, Envoy, Kong, Traefik, HAProxy; see rlsim import), as --scenario takes a scenario's")
	f.StringVar(&opts.From, "from", "auto", "the --config file's product: auto (detected), "+strings.Join(importer.Products(), ", "))
	f.IntVar(&opts.Replicas, "replicas", 1, "replay through `N` replicas (1 to 1000; default the scenario's topology, else 1)")
	f.StringVar(&opts.Routing, "routing", "round_robin", "how lines are routed over the replicas: round_robin, random (seeded by --seed), hash (of --hash-key)")
	f.StringVar(&opts.HashKey, "hash-key", "ip", "the `key` hash routing hashes, as --limit's key=")
	f.StringVar(&opts.State, "state", "local", "where each --limit's state lives with replicas: local (each replica counts alone), divided (each its share), shared (one atomic store)")
	f.Uint64Var(&opts.Seed, "seed", 1, "the `seed` of random routing")
	f.StringArrayVar(&opts.Where, "where", nil, "with --find, a `CONDITION` '[lane LANE] METRIC OP VALUE' on a swept row, METRIC one of "+replay.WhereMetricNames()+"; repeatable")
	// --to-scenario: a scenario derived from the log (docs/replay.md, "A scenario from a log").
	f.StringVar(&opts.ToScenario, "to-scenario", "", "derive a scenario from the log instead: print it, or write it to `FILE` (--to-scenario=FILE; never over a file rlsim did not write)")
	f.Lookup("to-scenario").NoOptDefVal = "-"
	f.StringVar(&opts.Key, "key", "ip", "with --to-scenario, what a client is: a key `SPEC` as a --limit's")
	f.IntVar(&opts.Groups, "groups", 5, "with --to-scenario, at most `N` client groups (1 to 50)")
	f.Int64Var(&opts.MaxEvents, "max-events", 50_000_000, "with --to-scenario, refuse a derived scenario estimated to need more than `N` events")
	f.StringVar(&opts.Shard, "shard", "", "replay share `i/n` of the keys (by FNV-1a of the key) and print a partial result for rlsim replay merge")
	cmd.AddCommand(NewCmdReplayMerge(out, nil))
	return cmd
}

func replayRun(opts *replayOptions) error {
	given := opts.given
	if given == nil {
		given = func(string) bool { return false }
	}
	if opts.ToScenario != "" {
		return toScenarioRun(opts, given)
	}
	for _, f := range []string{"key", "groups", "max-events"} {
		if given(f) {
			return badInput(fmt.Errorf("--%s: only with --to-scenario (a --limit names its own key)", f))
		}
	}
	ro, err := opts.Options()
	if err != nil {
		return badInput(err)
	}
	if opts.Shard != "" {
		return replayShardRun(opts, ro)
	}
	c := replay.Command{Stdin: os.Stdin, Out: opts.Out, Warn: opts.Err, Progress: opts.Progress, Clock: time.Now,
		Width: terminalWidth(opts.Out), Format: opts.Format, Find: opts.Find != "", Dir: opts.OutDir}
	return c.Run(ctxOf(opts.Ctx), opts.Args, ro)
}

func toScenarioRun(opts *replayOptions, given func(string) bool) error {
	do, err := opts.DeriveOptions(given)
	if opts.ToScenario == "-" {
		for _, a := range opts.Args {
			if strings.HasSuffix(a, ".yaml") || strings.HasSuffix(a, ".yml") {
				err = errors.Join(err, fmt.Errorf("--to-scenario: %s would be read as a log; write --to-scenario=%s to write the scenario there", a, a))
			}
		}
	}
	if err != nil {
		return badInput(err)
	}
	c := replay.ScenarioCommand{Stdin: os.Stdin, Out: opts.Out, Err: opts.Err, To: opts.ToScenario}
	return c.Run(ctxOf(opts.Ctx), opts.Args, do)
}
