package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"

	"github.com/rlsim/rlsim/importer"
	"github.com/rlsim/rlsim/run"
)

// configFlags are --config, --from and --strict: a product's config whose
// limits, lanes and chain take the place of each scenario's own.
type configFlags struct {
	Path   string
	From   string
	Strict bool
}

func (c *configFlags) add(f *pflag.FlagSet) {
	f.StringVar(&c.Path, "config", "", "a product's config `FILE` (nginx, Envoy, Kong, Traefik, HAProxy) whose limits, lanes and chain replace the scenario's (see rlsim import)")
	f.StringVar(&c.From, "from", "auto", "the --config file's product: auto (detected), "+strings.Join(importer.Products(), ", "))
	f.BoolVar(&c.Strict, "strict", false, "refuse a --config with any part the scenario cannot say as the config does (exit 2), instead of warning")
}

// load imports the config, if one was given, writing a warning to warn for
// every part the scenario cannot say.
func (c *configFlags) load(warn io.Writer) (*run.Config, error) {
	if c.Path == "" {
		if (c.From != "" && c.From != "auto") || c.Strict {
			return nil, badInputf("--from and --strict need --config")
		}
		return nil, nil
	}
	cfg, err := run.ImportConfig(c.Path, c.From, c.Strict)
	if err != nil {
		return nil, err
	}
	warnProblems(warn, cfg.Model)
	return cfg, nil
}

// warnProblems writes each part of m the scenario cannot say, as a warning.
func warnProblems(w io.Writer, m *importer.Model) {
	for _, p := range m.Problems {
		fmt.Fprintf(w, "warning: %s\n", p)
	}
}
