package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/rlsim/rlsim/importer"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

type importOptions struct {
	Out    io.Writer
	Err    io.Writer
	Config configFlags
}

// NewCmdImport builds "rlsim import". runF, when not nil, replaces the run itself (tests).
func NewCmdImport(out io.Writer, runF func(*importOptions) error) *cobra.Command {
	opts := &importOptions{Out: out}
	cmd := &cobra.Command{
		Use:   "import CONFIG",
		Short: "Print a product's rate-limit config as a scenario",
		Long: `Read a rate-limit config as its product reads it and print it as a scenario:
the limits with their keys and the endpoints they count, and product lanes that
decide as the product does, each under a comment naming the file and line it
came from. The clients are example traffic (a config says none): replace them.

It reads nginx (limit_req_zone, limit_req, limit_req_status, limit_req_dry_run,
maps, locations, includes), Envoy (the local rate limit filter; the
envoyproxy/ratelimit service's descriptors), Kong declarative config
(rate-limiting, rate-limiting-advanced), Traefik dynamic config (YAML or TOML
rateLimit middlewares and their routers) and HAProxy (stick tables with
track-sc and deny rules); --from names the product when it is not detected.
A part the scenario cannot say as the config does is a warning on standard
error and a comment in the scenario, at its file and line; --strict makes it
an error (exit 2). See docs/import.md.

rlsim run SCENARIO --config CONFIG runs a scenario's clients against the
config's limits without writing the scenario.`,
		Example: `  rlsim import /etc/nginx/nginx.conf > mine.yaml
  rlsim import kong.yaml --strict
  rlsim run mine.yaml --config /etc/nginx/nginx.conf`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Config.Path, opts.Err = args[0], cmd.ErrOrStderr()
			if runF != nil {
				return runF(opts)
			}
			return importRun(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.Config.From, "from", "auto", "the config's product: auto (detected), "+strings.Join(importer.Products(), ", "))
	f.BoolVar(&opts.Config.Strict, "strict", false, "refuse a config with any part the scenario cannot say as the config does (exit 2), instead of warning")
	_ = cmd.RegisterFlagCompletionFunc("from", cobra.FixedCompletions(append([]string{"auto"}, importer.Products()...), cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func importRun(opts *importOptions) error {
	cfg, err := run.ImportFile(opts.Config.Path, opts.Config.From, opts.Config.Strict)
	if err != nil {
		return err
	}
	out := importer.Render(cfg.Model)
	// The scenario is rlsim's own writing: one that does not parse is rlsim's
	// bug, said as such rather than printed.
	if _, err := scenarios.Parse(opts.Config.Path+" (imported)", out); err != nil {
		return fmt.Errorf("rlsim import wrote a scenario it cannot read (a bug; please report it with the config): %v", err)
	}
	warnProblems(opts.Err, cfg.Model)
	_, err = opts.Out.Write(out)
	return err
}
