package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"
)

type versionOptions struct {
	Out io.Writer
}

// NewCmdVersion builds "rlsim version".
func NewCmdVersion(out io.Writer, runF func(*versionOptions) error) *cobra.Command {
	opts := &versionOptions{Out: out}
	return &cobra.Command{
		Use:   "version",
		Short: "Print rlsim's version",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return versionRun(opts)
		},
	}
}

func versionRun(opts *versionOptions) error {
	version, rev, goVersion := "(devel)", "", ""
	if bi, ok := debug.ReadBuildInfo(); ok {
		goVersion = bi.GoVersion
		if bi.Main.Version != "" {
			version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && len(s.Value) >= 12 {
				rev = " " + s.Value[:12]
			}
		}
	}
	_, err := fmt.Fprintf(opts.Out, "rlsim %s%s %s\n", version, rev, goVersion)
	return err
}
