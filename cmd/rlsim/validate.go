package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

type validateOptions struct {
	Out       io.Writer
	Args      []string
	Sets      []string
	MaxEvents int64
	Config    configFlags
	Err       io.Writer
}

// NewCmdValidate builds "rlsim validate". runF, when not nil, replaces the run itself (tests).
func NewCmdValidate(out io.Writer, runF func(*validateOptions) error) *cobra.Command {
	opts := &validateOptions{Out: out}
	cmd := &cobra.Command{
		Use:   "validate FILE|NAME...",
		Short: "Check scenario files without running them",
		Long: `Check each scenario file and report every problem at once, one per line, as
file:line: field.path: what is wrong. The exit status is 2 if any file has a
problem.

--set PATH=VALUE writes a field into every file before it is checked, as
rlsim run does: a file is ok when rlsim run would run it with the same flags.`,
		Example: `  rlsim validate mine.yaml
  rlsim validate mine.yaml --set limits[0].limit=20 \
      --set clients[1].retry.kind=exponential`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeScenarioNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Args, opts.Err = args, cmd.ErrOrStderr()
			if opts.MaxEvents <= 0 {
				return badInputf("--max-events: must be positive, got %d", opts.MaxEvents)
			}
			if runF != nil {
				return runF(opts)
			}
			return validateRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringArrayVar(&opts.Sets, "set", nil, "replace the scenario field at `PATH=VALUE` (the file's names, e.g. limits[0].limit=20) in every file; repeatable")
	f.Int64Var(&opts.MaxEvents, "max-events", defaultMaxEvents, "also refuse scenarios estimated to need more events than `N`")
	opts.Config.add(f)
	return cmd
}

func validateRun(opts *validateOptions) error {
	sets, err := run.ParseSets(opts.Sets)
	if err != nil {
		return err
	}
	cfg, err := opts.Config.load(opts.Err)
	if err != nil {
		return err
	}
	var errs []error
	for _, arg := range opts.Args {
		s, err := run.ValidateWith(arg, sets, opts.MaxEvents, cfg)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, w := range scenarios.Warnings(s) {
			fmt.Fprintln(opts.Out, w.Error())
		}
		with := withSets(s.Sets)
		if cfg != nil {
			with += " with --config " + cfg.Path
		}
		fmt.Fprintf(opts.Out, "%s: ok%s\n", s.File, with)
	}
	return badInput(errors.Join(errs...))
}

// withSets names the --set flags a file was checked with, if any.
func withSets(sets []string) string {
	if len(sets) == 0 {
		return ""
	}
	return " with --set " + strings.Join(sets, " --set ")
}
