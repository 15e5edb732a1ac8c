package main

import (
	"encoding/json"
	"os"
	"path/filepath"
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

// --trace - writes the trace, JSON lines, to standard output and nothing
// else there; the results go to --out, which it needs.
func TestTraceToStdout(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rep")
	code, out, errOut := execute(t, "run", "boundary-burst", "--lanes", "gcra", "--trace", "-", "--out", dir)
	if code != 0 {
		t.Fatalf("--trace - --out: exit %d, %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	for i, line := range lines {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil || rec["scenario"] != "boundary-burst" {
			t.Fatalf("stdout line %d is not a trace record: %q", i+1, line)
		}
	}
	var res struct {
		Runs []struct {
			Lanes []struct {
				Attempts int `json:"attempts"`
			} `json:"lanes"`
		} `json:"runs"`
	}
	data, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil || json.Unmarshal(data, &res) != nil {
		t.Fatalf("the results are not in --out: %v", err)
	}
	admitsAndRefusals := strings.Count(out, `"event":"admit"`) + strings.Count(out, `"event":"refuse"`) + strings.Count(out, `"event":"delay"`)
	if admitsAndRefusals != res.Runs[0].Lanes[0].Attempts {
		t.Errorf("the trace holds %d decisions, the results %d attempts", admitsAndRefusals, res.Runs[0].Lanes[0].Attempts)
	}
	if code, out, errOut := execute(t, "run", "boundary-burst", "--trace", "-"); code != exitBadInput || out != "" || !strings.Contains(errOut, "need --out DIR") {
		t.Errorf("--trace - without --out: exit %d, %q", code, errOut)
	}
}
