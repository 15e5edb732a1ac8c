package main

import (
	"context"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

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
req.x-api-key, an ALB field such as client:port), joined by + (ip+endpoint).`,
		Example: `  rlsim replay access.log.gz --limit 'key=ip limit=100/1m burst=20'
  rlsim replay api.jsonl --fields time=ts,ip=remote_addr \
      --limit 'key=field:api_key limit=10/1s'
  rlsim replay access.log \
      --nginx-format '$remote_addr [$time_local] "$request" "$http_x_api_key"' \
      --limit 'key=field:http_x_api_key limit=10/1s'`,
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
	f.StringArrayVar(&opts.Limits, "limit", nil, "a limit to replay, `SPEC` 'key=ip limit=100/1m burst=20 name=N endpoint=/login'; repeatable")
	f.StringArrayVar(&opts.Lanes, "lane", nil, "replay only this `lane` (default all six per-key lanes); repeatable")
	f.StringVar(&opts.LogFormat, "log-format", "auto", "the logs' `format`: "+strings.Join(replay.Formats, ", "))
	f.StringVar(&opts.NginxFormat, "nginx-format", "", "read nginx logs written by this log_format `STRING` ('$remote_addr - [$time_local] \"$request\" $http_x_api_key'); implies --log-format nginx")
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
	f.StringArrayVar(&opts.Where, "where", nil, "with --find, a `CONDITION` '[lane LANE] METRIC OP VALUE' on a swept row, METRIC one of "+replay.WhereMetricNames()+"; repeatable")
	f.StringVar(&opts.Shard, "shard", "", "replay share `i/n` of the keys (by FNV-1a of the key) and print a partial result for rlsim replay merge")
	cmd.AddCommand(NewCmdReplayMerge(out, nil))
	return cmd
}

func replayRun(opts *replayOptions) error {
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
