package main

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

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
	case strings.HasPrefix(msg, "requires at least"), strings.HasPrefix(msg, "accepts") && n < exactCount(msg):
		return "an argument is missing"
	case strings.HasPrefix(msg, "accepts"), strings.HasPrefix(msg, "unknown command"):
		return fmt.Sprintf("too many arguments (%d)", n)
	}
	return msg
}

// exactCount is N of cobra's "accepts N arg(s), received M" (ExactArgs), or 0
// for another complaint ("accepts at most N": only too many).
func exactCount(msg string) int {
	var n int
	if _, err := fmt.Sscanf(msg, "accepts %d arg(s)", &n); err != nil {
		return 0
	}
	return n
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

// strictHelpAndCompletion makes "rlsim help TOPIC" and "rlsim completion
// SHELL" refuse what they do not know, with status 2 as rlsim's own
// commands do (cobra's print the usage and end 0).
func strictHelpAndCompletion(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			show := c.Run
			c.Run = nil
			c.RunE = func(cmd *cobra.Command, args []string) error {
				if found, _, err := cmd.Root().Find(args); err != nil || found == nil {
					return badInputf("rlsim help: no command %q (rlsim --help lists them)", strings.Join(args, " "))
				}
				show(cmd, args)
				return nil
			}
		case "completion":
			c.Args = func(cmd *cobra.Command, args []string) error {
				if len(args) > 0 {
					return fmt.Errorf("unknown shell %q (want bash, zsh, fish or powershell)", args[0])
				}
				return nil
			}
			c.RunE = func(cmd *cobra.Command, _ []string) error { return cmd.Help() }
			for _, shell := range c.Commands() {
				shell.Long = wrapLines(shell.Long, helpWidth) // cobra's texts run past 80 columns
			}
		}
	}
}

// wrapLines breaks each line of text longer than width at its last space
// within width, keeping its indentation on the lines it breaks into.
func wrapLines(text string, width int) string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		for utf8.RuneCountInString(line) > width {
			cut := strings.LastIndex(line[:width], " ")
			if cut <= len(indent) {
				break
			}
			out = append(out, line[:cut])
			line = indent + line[cut+1:]
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
