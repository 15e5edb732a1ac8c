package main

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/conform"
)

// TestConformPrintsEveryScript checks that --print-script writes each
// reference script exactly as shipped.
func TestConformPrintsEveryScript(t *testing.T) {
	for _, s := range conform.Scripts() {
		t.Run(s.Name, func(t *testing.T) {
			code, out, errOut := execute(t, "conform", "--print-script", s.Name)
			if code != 0 || out != s.Source {
				t.Errorf("exit %d, stderr %q; printed the script: %v", code, errOut, out == s.Source)
			}
		})
	}
}

// TestConformBadInput checks that every problem of a command line is told at
// once, with exit status 2, before any Redis is called.
func TestConformBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown script", []string{"conform", "--print-script", "gcrra"},
			[]string{`--print-script: unknown script "gcrra"`, "gcra_racy_write"}},
		{"nothing to check", []string{"conform"},
			[]string{"missing the scenario", "--redis: missing the address"}},
		{"every flag wrong", []string{"conform", "--redis", "127.0.0.1:1", "--script", "x.lua", "--clock", "wall",
			"--time-scale", "0.5", "--tolerance", "-1s", "--runs", "0", "demo"},
			[]string{"--script: say which lane", `--clock: unknown clock "wall"`, "--time-scale: must be at least 1",
				"--tolerance: must not be negative", "--runs, --max-events and --max-wall must be positive"}},
		{"too long in real time", []string{"conform", "--redis", "127.0.0.1:1", "--time-scale", "1", "--replicas", "1,4", "--max-wall", "1m", "demo"},
			[]string{"demo.yaml: the check would take about ", "(12 race runs included), over --max-wall 1m0s"}},
		{"server clock scaled", []string{"conform", "--redis", "127.0.0.1:1", "--clock", "server", "demo"},
			[]string{"the server clock runs in real time: must be 1, got 10"}},
		{"a chain of several limits", []string{"conform", "--redis", "127.0.0.1:1", "store-outage"},
			[]string{"store-outage.yaml: limits: conform checks a chain of one limit, got 3"}},
		{"a lane without a script", []string{"conform", "--redis", "127.0.0.1:1", "--lane", "aimd", "demo"},
			[]string{"lane aimd has no limiter script"}},
		{"a contention study", []string{"conform", "--redis", "127.0.0.1:1", "backoff-contention"},
			[]string{"not a contention study"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := execute(t, tt.args...)
			if code != exitBadInput || out != "" {
				t.Errorf("exit %d, stdout %q; want %d and nothing", code, out, exitBadInput)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q does not say %q", errOut, w)
				}
			}
		})
	}
}
