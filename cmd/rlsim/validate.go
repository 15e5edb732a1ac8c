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
	Format    string
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
	formatFlag(f, &opts.Format, "text", "output `format`: text, or json (each file with its problems as objects: file, line, path, message)")
	return cmd
}

func validateRun(opts *validateOptions) error {
	if opts.Format != "text" && opts.Format != "json" {
		return badInputf("--format: unknown %q (want text or json)", opts.Format)
	}
	sets, err := run.ParseSets(opts.Sets)
	if err != nil {
		return err
	}
	cfg, err := opts.Config.load(opts.Err)
	if err != nil {
		return err
	}
	if opts.Format == "json" {
		return validateJSON(opts, sets, cfg)
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

// validatedFile is one file in rlsim validate -o json.
type validatedFile struct {
	File     string          `json:"file"`
	OK       bool            `json:"ok"`
	Errors   []problemObject `json:"errors"`
	Warnings []problemObject `json:"warnings"`
}

// problemObject is one problem of a file: where, and what is wrong.
type problemObject struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Path    string `json:"path,omitempty"`
	Message string `json:"message"`
}

// validateJSON checks every file and prints one JSON document of them all;
// the exit status is 2 when any has a problem, as in text.
func validateJSON(opts *validateOptions, sets []scenarios.Set, cfg *run.Config) error {
	files := []validatedFile{}
	bad := 0
	for _, arg := range opts.Args {
		v := validatedFile{File: arg, Errors: []problemObject{}, Warnings: []problemObject{}}
		s, err := run.ValidateWith(arg, sets, opts.MaxEvents, cfg)
		if err != nil {
			v.Errors = problemObjects(arg, err)
			bad++
		} else {
			v.File, v.OK = s.File, true
			for _, w := range scenarios.Warnings(s) {
				v.Warnings = append(v.Warnings, problemObjects(s.File, w)...)
			}
		}
		files = append(files, v)
	}
	if err := writeJSONLine(opts.Out, map[string]any{"files": files}); err != nil {
		return err
	}
	if bad > 0 {
		return badInputf("rlsim validate: %d of %d files have problems", bad, len(opts.Args))
	}
	return nil
}

// problemObjects lists err's problems, each at its file, line and field
// where err says them.
func problemObjects(file string, err error) []problemObject {
	var list scenarios.Errors
	var one *scenarios.FieldError
	switch {
	case errors.As(err, &list):
		out := make([]problemObject, len(list))
		for i, fe := range list {
			out[i] = problemObject{fe.File, fe.Line, fe.Path, fe.Msg}
		}
		return out
	case errors.As(err, &one):
		return []problemObject{{one.File, one.Line, one.Path, one.Msg}}
	}
	return []problemObject{{File: file, Message: err.Error()}}
}
