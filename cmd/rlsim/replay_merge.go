package main

import (
	"errors"
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/replay"
)

type replayMergeOptions struct {
	Out    io.Writer
	Err    io.Writer
	Files  []string
	Format string
	OutDir string
}

// NewCmdReplayMerge builds "rlsim replay merge". runF, when not nil, replaces
// the merge itself (tests).
func NewCmdReplayMerge(out io.Writer, runF func(*replayMergeOptions) error) *cobra.Command {
	opts := &replayMergeOptions{Out: out}
	cmd := &cobra.Command{
		Use:   "merge PARTIAL...",
		Short: "Combine the partial results of every shard of a replay",
		Long: `Combine the partial results that rlsim replay --shard i/n printed, one per
shard, into exactly the output one pass over the logs gives: the same table,
JSON or CSV and --out report, byte for byte. Each partial is verified before
it is used: its checksum, its replay's definition (the logs by name and size,
the flags, the limits and the rlsim version) and that it holds only its
shard's keys. A partial cut short, edited, of another replay or rlsim, a shard
given twice, missing shards, and shards that read the logs differently are
refused (exit 2), naming the file and what is wrong. The replay's flags were
fixed when the shards ran; the merge takes the output's, --format and --out.`,
		Example: `  rlsim replay merge part-*.json --format json`,
		Args:    cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files, opts.Err = args, cmd.ErrOrStderr()
			switch opts.Format {
			case "text", "json", "csv":
			default:
				return badInputf("--format: unknown %q (want text, json, csv)", opts.Format)
			}
			if runF != nil {
				return runF(opts)
			}
			return replayMergeRun(opts)
		},
	}
	f := cmd.Flags()
	formatFlag(f, &opts.Format, "text", "output `format`: text, json, csv")
	f.StringVar(&opts.OutDir, "out", "", "also write replay.txt, .json, .csv, report.html and PNG plots into `DIR` (a report folder)")
	return cmd
}

func replayMergeRun(opts *replayMergeOptions) error {
	c := replay.Command{Out: opts.Out, Warn: opts.Err, Width: terminalWidth(opts.Out), Format: opts.Format, Dir: opts.OutDir}
	return c.RunMerge(opts.Files)
}

// replayShardRun replays the shard --shard names, ro being the replay's
// options, and prints its partial result.
func replayShardRun(opts *replayOptions, ro replay.Options) error {
	var errs []error
	if opts.OutDir != "" {
		errs = append(errs, badInputf("--out: a --shard prints a partial result only; give --out to rlsim replay merge"))
	}
	if opts.Format != "text" {
		errs = append(errs, badInputf("--format: a --shard prints a partial result only; give --format to rlsim replay merge"))
	}
	if err := errors.Join(errs...); err != nil {
		return badInput(err)
	}
	c := replay.Command{Stdin: os.Stdin, Out: opts.Out, Warn: opts.Err, Progress: opts.Progress, Clock: time.Now}
	return c.RunShard(ctxOf(opts.Ctx), opts.Args, opts.Flags, ro)
}
