package main

import (
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// helpWidth is the most columns any help text takes: the flags' lines are
// wrapped to it, and a test holds every other line of every command's help
// to it.
const helpWidth = 80

// wrapHelp makes root's usage (and every command's, which inherit it) wrap
// the flags' lines at helpWidth.
func wrapHelp(root *cobra.Command) {
	cobra.AddTemplateFunc("wrapFlags", func(fs *pflag.FlagSet) string {
		lines := strings.Split(fs.FlagUsagesWrapped(helpWidth), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimRight(l, " ")
		}
		return strings.Join(lines, "\n")
	})
	t := root.UsageTemplate()
	t = strings.ReplaceAll(t, ".LocalFlags.FlagUsages", "wrapFlags .LocalFlags")
	t = strings.ReplaceAll(t, ".InheritedFlags.FlagUsages", "wrapFlags .InheritedFlags")
	root.SetUsageTemplate(t)
}
