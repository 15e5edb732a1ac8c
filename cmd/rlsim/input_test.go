package main

import (
	"os"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
)

// TestNamesAndPaths checks which scenario an argument names when the current
// folder holds paths named like built-ins.
func TestNamesAndPaths(t *testing.T) {
	t.Chdir(t.TempDir())
	src, _ := scenarios.BuiltinSource("boundary-burst")
	mine := strings.Replace(string(src), "description: ", "description: MY COPY ", 1)
	os.Mkdir("demo", 0o755)
	os.WriteFile("boundary-burst", []byte(mine), 0o644)
	os.WriteFile("mine", []byte(mine), 0o644)
	for _, tc := range []struct {
		arg    string
		status int
		want   string // in stdout, or in stderr for a failure
	}{
		{"demo", 0, "a boundary burst on top of steady traffic"}, // a folder is never a scenario
		{"boundary-burst", 2, "boundary-burst: names both a built-in scenario and a file here; write ./boundary-burst for the file or builtin:boundary-burst for the built-in"},
		{"./boundary-burst", 0, "MY COPY"},
		{"builtin:boundary-burst", 0, "two bursts either side of a window boundary"},
		{"mine", 0, "MY COPY"},
		{"./demo", 2, "./demo"},
		{"builtin:dem", 2, `builtin:dem: no built-in scenario of that name`},
	} {
		t.Run(tc.arg, func(t *testing.T) {
			code, out, errOut := execute(t, "run", tc.arg, "--format", "json")
			got := out
			if tc.status != 0 {
				got = errOut
			}
			if code != tc.status || !strings.Contains(got, tc.want) {
				t.Errorf("rlsim run %s: exit %d, stdout %.200q, stderr %q; want exit %d and %q", tc.arg, code, out, errOut, tc.status, tc.want)
			}
		})
	}
}
