package main

import (
	"bytes"
	"strings"
	"testing"
)

// A missing argument is told with the command's usage line and its first
// example (usageOnBadArgs): the example's first line, a command a user can
// paste, without the backslash that continues it on the next line of the
// help, nor the space before it. sweep merge needs an argument and its first
// example goes on over two lines; validate's is one line.
func TestMissingArgumentExampleIsOneCommand(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"validate"}, "Example: rlsim validate mine.yaml\n"},
		{[]string{"sweep", "merge"}, "Example: rlsim sweep merge part-*.json --find 'min limits[0].limit'\n"},
	} {
		var out, errOut bytes.Buffer
		code := mainRun(tc.args, &out, &errOut)
		if code != exitBadInput || !strings.Contains(errOut.String(), "an argument is missing") {
			t.Errorf("rlsim %s: exit %d, stderr %q; want 2 and the argument missing", strings.Join(tc.args, " "), code, errOut.String())
		}
		if !strings.HasSuffix(errOut.String(), tc.want) {
			t.Errorf("rlsim %s: stderr %q, want it to end with %q", strings.Join(tc.args, " "), errOut.String(), tc.want)
		}
	}
}
