package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/report/textlayout"
	"github.com/rlsim/rlsim/scenarios"
)

type scenariosOptions struct {
	Out    io.Writer
	Format string
}

// NewCmdScenarios builds "rlsim scenarios" and its "show" subcommand.
func NewCmdScenarios(out io.Writer, runF func(*scenariosOptions) error) *cobra.Command {
	opts := &scenariosOptions{Out: out}
	cmd := &cobra.Command{
		Use:     "scenarios",
		Aliases: []string{"list"},
		Short:   "List the built-in scenarios",
		Long: `List the built-in scenarios with what each one shows. Run one with
"rlsim run NAME"; print it as a starting point for your own with
"rlsim scenarios show NAME > mine.yaml".`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return scenariosRun(opts)
		},
	}
	formatFlag(cmd.Flags(), &opts.Format, "text", "output `format`: text or json")
	cmd.AddCommand(NewCmdScenariosShow(out, nil))
	return cmd
}

// builtinJSON is one built-in scenario in rlsim scenarios -o json.
type builtinJSON struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

func scenariosRun(opts *scenariosOptions) error {
	switch opts.Format {
	case "json":
		list := []builtinJSON{}
		for _, b := range scenarios.Builtins() {
			list = append(list, builtinJSON{b.Name, b.Description})
		}
		return writeJSONLine(opts.Out, map[string]any{"scenarios": list})
	case "text":
	default:
		return badInputf("--format: unknown %q (want text or json)", opts.Format)
	}
	t := &textlayout.Table{Head: []string{"name", "what it shows"}, Text: true}
	for _, b := range scenarios.Builtins() {
		t.Add(b.Name, b.Description)
	}
	t.Write(opts.Out)
	return nil
}

type showOptions struct {
	Out  io.Writer
	Name string
}

// NewCmdScenariosShow builds "rlsim scenarios show".
func NewCmdScenariosShow(out io.Writer, runF func(*showOptions) error) *cobra.Command {
	opts := &showOptions{Out: out}
	return &cobra.Command{
		Use:               "show NAME",
		Short:             "Print a built-in scenario as YAML to start your own from",
		Example:           "  rlsim scenarios show demo > mine.yaml",
		Args:              cobra.ExactArgs(1),
		ValidArgsFunction: completeBuiltinNames,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if runF != nil {
				return runF(opts)
			}
			return showRun(opts)
		},
	}
}

func showRun(opts *showOptions) error {
	data, ok := scenarios.BuiltinSource(opts.Name)
	if !ok {
		return badInput(&scenarios.FieldError{File: opts.Name, Msg: scenarios.UnknownBuiltin(opts.Name)})
	}
	_, err := fmt.Fprintf(opts.Out, "%s", data)
	return err
}

// writeJSONLine writes v as one indented JSON document.
func writeJSONLine(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}
