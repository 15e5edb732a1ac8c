package main

import (
	"os"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/internal/golden"
)

// readmeBlock is the fenced block that follows the first line of README.md
// containing marker.
func readmeBlock(t *testing.T, marker string) string {
	t.Helper()
	s, start, end := readmeBlockAt(t, marker)
	return s[start:end]
}

// rewriteREADMEBlock replaces the fenced block after marker with out (-update).
func rewriteREADMEBlock(t *testing.T, marker, out string) {
	t.Helper()
	s, start, end := readmeBlockAt(t, marker)
	if err := os.WriteFile("../../README.md", []byte(s[:start]+out+s[end:]), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readmeBlockAt is README.md and where in it the body of the fenced block after
// the first line containing marker starts and ends.
func readmeBlockAt(t *testing.T, marker string) (readme string, start, end int) {
	t.Helper()
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	i := strings.Index(s, marker)
	if i < 0 {
		t.Fatalf("README.md has no %q", marker)
	}
	fence := strings.Index(s[i:], "```\n")
	if fence < 0 {
		t.Fatalf("README.md has no block after %q", marker)
	}
	start = i + fence + 4
	close := strings.Index(s[start:], "```")
	if close < 0 {
		t.Fatalf("README.md's block after %q does not end", marker)
	}
	return s, start, start + close
}

// The README shows real output; these keep it from going stale (-update
// rewrites the blocks).
func TestREADMEShowsTheRealOutput(t *testing.T) {
	for _, tc := range []struct {
		marker string
		args   []string
	}{
		{"This is its real output:", []string{"run"}},
		{"(`rlsim scenarios`)", []string{"scenarios"}},
		{"Its real output (the token bucket", []string{"sweep", "nat-per-user", "--vary", "limits[0].limit=2..4/1", "--seeds", "10",
			"--lanes", "sliding_log,token_bucket", "--find", "max limits[0].limit",
			"--where", "class users success >= 99%", "--where", "class abuser admitted_rate <= 3/s"}},
		{"Its real output (replayed)", []string{"replay", "../../replay/testdata/sample.log",
			"--limit", "key=ip limit=100/1m burst=20", "--limit", "key=endpoint limit=600/1m"}},
	} {
		code, out, errOut := execute(t, tc.args...)
		if code != 0 {
			t.Fatalf("rlsim %v: exit %d: %s", tc.args, code, errOut)
		}
		if golden.Updating() {
			rewriteREADMEBlock(t, tc.marker, out)
			continue
		}
		if got := readmeBlock(t, tc.marker); got != out {
			t.Errorf("README.md's block after %q is not what rlsim %v prints now; paste its output:\n%s", tc.marker, tc.args, out)
		}
	}
}

// The sizing section's command is the one whose output it shows.
func TestREADMESizingCommand(t *testing.T) {
	cmd := strings.Join(strings.Fields(strings.ReplaceAll(readmeBlock(t, "**Sizing a limit"), "\\\n", " ")), " ")
	want := "rlsim sweep nat-per-user --vary 'limits[0].limit=2..4/1' --seeds 10 --lanes sliding_log,token_bucket " +
		"--find 'max limits[0].limit' --where 'class users success >= 99%' --where 'class abuser admitted_rate <= 3/s'"
	if cmd != want {
		t.Errorf("README.md's sizing command is\n%s\nwant the one its output comes from:\n%s", cmd, want)
	}
}
