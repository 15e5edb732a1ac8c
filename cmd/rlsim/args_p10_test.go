package main

import (
	"strings"
	"testing"
)

// Every command refuses one argument too many and one too few, as its Use
// line says, with status 2 (bad input), in words that say which (diff with one
// argument of two was told "too many arguments (1)"), before running anything.
func TestEveryCommandsArgumentCount(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"import", "a.conf", "b.conf"}, "too many arguments (2)"},
		{[]string{"import"}, "an argument is missing"},
		{[]string{"diff", "a", "b", "c"}, "too many arguments (3)"},
		{[]string{"diff", "a"}, "rlsim diff: an argument is missing"},
		{[]string{"sweep", "a", "b"}, "too many arguments (2)"},
		{[]string{"sweep"}, "an argument is missing"},
		{[]string{"scenarios", "show", "a", "b"}, "too many arguments (2)"},
		{[]string{"scenarios", "show"}, "an argument is missing"},
		{[]string{"conform", "a", "b"}, "too many arguments (2)"},
		{[]string{"serve", "a", "b"}, "too many arguments (2)"},
		{[]string{"tui", "a", "b"}, "too many arguments (2)"},
		{[]string{"replay"}, "an argument is missing"},
		{[]string{"replay", "merge"}, "an argument is missing"},
		{[]string{"sweep", "merge"}, "an argument is missing"},
		{[]string{"validate"}, "an argument is missing"},
		{[]string{"version", "x"}, "rlsim version: too many arguments (1)"},
		{[]string{"schema", "x"}, "rlsim schema: too many arguments (1)"},
	} {
		code, out, errOut := execute(t, tc.args...)
		if code != exitBadInput || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("rlsim %s: status %d, stderr %q, stdout %q; want %d and %q", strings.Join(tc.args, " "), code, errOut, out, exitBadInput, tc.want)
		}
	}
}
