package main

import (
	"fmt"
	"strings"
	"sync"

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
	addWrapFlags.Do(func() { cobra.AddTemplateFunc("wrapFlags", wrapFlags) })
	t := root.UsageTemplate()
	t = strings.ReplaceAll(t, ".LocalFlags.FlagUsages", "wrapFlags .LocalFlags")
	t = strings.ReplaceAll(t, ".InheritedFlags.FlagUsages", "wrapFlags .InheritedFlags")
	root.SetUsageTemplate(t)
}

// addWrapFlags adds the template function once: cobra's table of them is
// global, and commands are built at once in tests.
var addWrapFlags sync.Once

// wrapFlags is fs's flags wrapped at helpWidth, no line ending in spaces.
func wrapFlags(fs *pflag.FlagSet) string {
	lines := strings.Split(fs.FlagUsagesWrapped(helpWidth), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// usageOnBadArgs wraps the argument checks of c and every command below it:
// a missing or extra argument is told with the command's usage line and its
// first example, not in cobra's words alone.
func usageOnBadArgs(c *cobra.Command) {
	if check := c.Args; check != nil {
		c.Args = func(cmd *cobra.Command, args []string) error {
			if err := check(cmd, args); err != nil {
				return badInputf("%s: %s\nUsage: %s%s", cmd.CommandPath(), argsProblem(err, len(args)), cmd.UseLine(), firstExample(cmd))
			}
			return nil
		}
	}
	for _, sub := range c.Commands() {
		usageOnBadArgs(sub)
	}
}

// argsProblem says cobra's complaint in words: too few, too many or another.
func argsProblem(err error, n int) string {
	msg := err.Error()
	switch {
	case strings.HasPrefix(msg, "requires at least"), strings.HasPrefix(msg, "accepts") && n == 0:
		return "an argument is missing"
	case strings.HasPrefix(msg, "accepts"), strings.HasPrefix(msg, "unknown command"):
		return fmt.Sprintf("too many arguments (%d)", n)
	}
	return msg
}

// firstExample is the command's first example as a line of its own, if any.
func firstExample(c *cobra.Command) string {
	ex := strings.TrimSpace(c.Example)
	if ex == "" {
		return ""
	}
	first, _, _ := strings.Cut(ex, "\n")
	return "\nExample: " + strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(first), `\`))
}
