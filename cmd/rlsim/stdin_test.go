package main

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// "-" reads the scenario from standard input, in run and validate alike,
// and names it stdin in problems; a sweep reads it once for every point.
func TestScenarioFromStdin(t *testing.T) {
	t.Cleanup(func() { run.SetStdin(nil) })
	scenario := "limits: [{limit: 5}]\nclients: [{count: 2, arrivals: [{kind: constant, rate: 20/s}]}]\n"
	run.SetStdin(strings.NewReader(scenario))
	code, out, errOut := execute(t, "run", "-", "--lanes", "gcra", "-o", "json")
	if code != 0 || !strings.Contains(out, `"limit": 5,`) {
		t.Errorf("run -: exit %d, %.200s %s", code, out, errOut)
	}
	run.SetStdin(strings.NewReader(scenario))
	code, out, _ = execute(t, "validate", "-")
	if code != 0 || out != "stdin: ok\n" {
		t.Errorf("validate -: exit %d, %q", code, out)
	}
	run.SetStdin(strings.NewReader("clients: [{count: 0}]\n"))
	code, _, errOut = execute(t, "validate", "-")
	if code != exitBadInput || !strings.Contains(errOut, "stdin:1: clients[0].count: must be positive") {
		t.Errorf("validate - with a bad scenario: exit %d, %q", code, errOut)
	}
	run.SetStdin(strings.NewReader(scenario))
	code, out, errOut = execute(t, "sweep", "-", "--vary", "limits[0].limit=5,10", "--lanes", "gcra")
	if code != 0 || strings.Count(out, "GCRA") < 2 {
		t.Errorf("sweep - over two points: exit %d, %s %s", code, out, errOut)
	}
}
