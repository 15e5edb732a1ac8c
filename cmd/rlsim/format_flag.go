package main

import "github.com/spf13/pflag"

// formatFlag adds --format with its short form -o (kubectl's and gh's
// spelling), and --output, hidden, with -f, the short form rlsim had first:
// both set the same value.
func formatFlag(f *pflag.FlagSet, p *string, def, usage string) {
	f.StringVarP(p, "format", "o", def, usage)
	f.StringVarP(p, "output", "f", def, usage)
	_ = f.MarkHidden("output")
}
