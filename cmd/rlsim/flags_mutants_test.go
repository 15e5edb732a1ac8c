package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMaxEventsMustBePositive walks --max-events' boundary in every command
// that checks it before any work: 0 and -1 are bad input saying the flag must
// be positive (not a scenario refused for its estimate against a budget of 0),
// and nothing is written to stdout.
func TestMaxEventsMustBePositive(t *testing.T) {
	for _, args := range [][]string{
		{"validate", "demo"},
		{"run", "demo"},
		{"sweep", "demo", "--vary", "limits[0].limit=10..20/10"},
	} {
		for _, n := range []string{"0", "-1"} {
			full := append(append([]string{}, args...), "--max-events", n)
			code, out, errOut := execute(t, full...)
			want := "--max-events: must be positive, got " + n
			if code != exitBadInput || out != "" || !strings.Contains(errOut, want) {
				t.Errorf("rlsim %s: exit %d, stdout %q, stderr %q; want exit %d saying %q and no output",
					strings.Join(full, " "), code, out, errOut, exitBadInput, want)
			}
		}
	}
}

// TestSeedsBounds walks --seeds' boundaries: the maximum itself is accepted by
// the flag check (refused, if at all, by the budget, never by the range), one
// more is not; a trace needs exactly one seed.
func TestSeedsBounds(t *testing.T) {
	dir := t.TempDir()
	code, _, errOut := execute(t, "run", "demo", "--seeds", "1001")
	if code != exitBadInput || !strings.Contains(errOut, "--seeds") {
		t.Errorf("rlsim run demo --seeds 1001: exit %d, stderr %q; want %d naming --seeds", code, errOut, exitBadInput)
	}
	code, _, errOut = execute(t, "run", "demo", "--seeds", "1000", "--max-events", "1")
	if strings.Contains(errOut, "--seeds") {
		t.Errorf("rlsim run demo --seeds 1000: exit %d, stderr %q; want --seeds accepted", code, errOut)
	}
	code, _, errOut = execute(t, "run", "demo", "--seeds", "2", "--trace", filepath.Join(dir, "t.csv"))
	if code != exitBadInput || !strings.Contains(errOut, "--trace") {
		t.Errorf("rlsim run demo --seeds 2 --trace t.csv: exit %d, stderr %q; want %d naming --trace", code, errOut, exitBadInput)
	}
}
