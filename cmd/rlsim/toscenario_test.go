package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/replay"
	"github.com/rlsim/rlsim/scenarios"
)

const toScenarioLog = "../../replay/testdata/toscenario.jsonl.gz"

// TestToScenarioPrints: --to-scenario alone prints a scenario that parses,
// and the fit goes to stderr; --to-scenario=FILE writes the same bytes.
func TestToScenarioPrints(t *testing.T) {
	code, out, errOut := execute(t, "replay", toScenarioLog, "--to-scenario")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.HasPrefix(out, replay.ScenarioMarker) || !strings.Contains(errOut, "fit: per-key rate quantiles within ") {
		t.Errorf("stdout %.200q, stderr %q: want the scenario and the fit", out, errOut)
	}
	if _, err := scenarios.Parse("out.yaml", []byte(out)); err != nil {
		t.Errorf("the scenario printed does not parse: %v", err)
	}
	file := filepath.Join(t.TempDir(), "derived.yaml")
	if code, _, errOut := execute(t, "replay", toScenarioLog, "--to-scenario="+file, "--groups", "5"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	got, err := os.ReadFile(file)
	if err != nil || string(got) != out {
		t.Errorf("the file holds %.200q (%v), want what was printed", got, err)
	}
	// rlsim wrote it: it may write it again.
	if code, _, errOut := execute(t, "replay", toScenarioLog, "--to-scenario="+file, "--groups", "2"); code != 0 {
		t.Fatalf("rewriting its own file: exit %d: %s", code, errOut)
	}
}

func TestToScenarioRefuses(t *testing.T) {
	dir := t.TempDir()
	mine := filepath.Join(dir, "mine.yaml")
	if err := os.WriteFile(mine, []byte("clients: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"a file rlsim did not write", []string{"--to-scenario=" + mine}, []string{"rlsim did not write it"}},
		{"a yaml read as a log", []string{"--to-scenario", mine}, []string{"write --to-scenario=" + mine}},
		{"the budget", []string{"--to-scenario", "--max-events", "1000"}, []string{"--max-events: the derived scenario needs about", "over the budget of 1000"}},
		{"replay's own flags", []string{"--to-scenario", "--limit", "key=ip limit=1/1s", "--vary", "x"}, []string{"--limit: replays the log", "--vary: replays the log"}},
		{"bad values", []string{"--to-scenario", "--groups", "51", "--key", "ipp"}, []string{"--groups: want 1 to 50, got 51", `--key: unknown key part "ipp"`}},
		{"derivation flags without it", []string{"--limit", "key=ip limit=1/1s", "--groups", "3"}, []string{"--groups: only with --to-scenario"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := execute(t, append([]string{"replay", toScenarioLog}, tt.args...)...)
			if code != exitBadInput {
				t.Fatalf("exit %d, stderr %q; want 2", code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q lacks %q", errOut, w)
				}
			}
		})
	}
	if got, _ := os.ReadFile(mine); string(got) != "clients: []\n" {
		t.Errorf("the file rlsim did not write was changed: %q", got)
	}
}
