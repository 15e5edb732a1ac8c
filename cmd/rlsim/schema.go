package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/scenarios"
)

type schemaOptions struct {
	Out io.Writer
}

// NewCmdSchema builds "rlsim schema".
func NewCmdSchema(out io.Writer, runF func(*schemaOptions) error) *cobra.Command {
	opts := &schemaOptions{Out: out}
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of scenario files, for editors",
		Long: `Print the JSON Schema of scenario files. Save it and point your editor's YAML
support at it for completion and checking, e.g. with the line
# yaml-language-server: $schema=rlsim.schema.json
at the top of a scenario file.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			_, err := opts.Out.Write(scenarios.JSONSchema())
			return err
		},
	}
}
