package main

import (
	"errors"
	"io"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/report/output"
)

type mergeOptions struct {
	Out    io.Writer
	Files  []string
	Find   string
	Where  []string
	Format string
	OutDir string
	// Width is the terminal's width for the table, 0 for the full layout.
	Width int
	Wide  bool
}

// NewCmdSweepMerge builds "rlsim sweep merge". runF, when not nil, replaces the
// merge itself (tests).
func NewCmdSweepMerge(out io.Writer, runF func(*mergeOptions) error) *cobra.Command {
	opts := &mergeOptions{Out: out, Width: terminalWidth(out)}
	cmd := &cobra.Command{
		Use:   "merge PARTIAL...",
		Short: "Combine the partial results of every shard of a sweep",
		Long: `Combine the partial results that rlsim sweep --shard i/n printed, one per
shard, into exactly the output the whole sweep gives on one machine: the same
table, JSON or CSV, objective and --out report. Each partial is verified
before it is used: its checksum, its sweep's definition (scenario, flags, seeds
and rlsim version) and that it holds its shard's points, each once, one run per
seed, every figure. A partial cut short, edited, of another sweep or rlsim, a
shard given twice and missing shards are refused (exit 2), naming the file and
what is wrong. The reproduce line names the scenario as the first partial's
command named it.`,
		Example: `  rlsim sweep merge part-*.json --find 'min limits[0].limit' \
      --where 'class users success >= 99%'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Files = args
			var widthErr error
			if opts.Width < 0 {
				widthErr = badInputf("--width: must be 0 or more, got %d", opts.Width)
			}
			if opts.Wide {
				opts.Width = 0
			}
			if err := errors.Join(output.CheckSweep(opts.Format, opts.Find, opts.Where), widthErr); err != nil {
				return err
			}
			if runF != nil {
				return runF(opts)
			}
			return mergeRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Find, "find", "", "pick for each lane the point with the least (`GOAL` 'min PATH') or most ('max PATH') PATH that meets every --where")
	f.StringArrayVar(&opts.Where, "where", nil, "a `CONDITION` on the means over seeds: '[lane LANE] [class CLASS] METRIC OP VALUE'; repeatable")
	formatFlag(f, &opts.Format, output.Default, output.Help(output.ForSweeps))
	f.StringVar(&opts.OutDir, "out", "", "write index.html, the PNG plots, sweep.json and sweep.csv to `DIR`")
	f.BoolVar(&opts.Wide, "wide", false, "print every table column and each line whole, however wide the terminal")
	f.IntVar(&opts.Width, "width", opts.Width, "fit the table to `N` columns (default: the terminal's width; 0: full layout)")
	return cmd
}

func mergeRun(opts *mergeOptions) error {
	return output.Merge(opts.Out, opts.Files, output.SweepOptions{Format: opts.Format, Dir: opts.OutDir,
		Width: opts.Width, Find: opts.Find, Where: opts.Where})
}
