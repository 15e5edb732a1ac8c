package report

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func stage(t *testing.T, out string, files ...string) *Dir {
	t.Helper()
	d, err := CreateDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := d.Write(f, []byte(f)); err != nil {
			t.Fatal(err)
		}
	}
	return d
}

// TestDirCommitReplacesWholeOrNothing: a report moves into a new folder with
// its marker listing each file; a second replaces it whole (a file only the
// first had is gone); a file put in the folder while a report was staged
// stops the commit, kept, with the staging removed; Abort after Commit keeps
// the report.
func TestDirCommitReplacesWholeOrNothing(t *testing.T) {
	parent := t.TempDir()
	out := filepath.Join(parent, "report")
	d := stage(t, out, "a.txt", "b.txt")
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	d.Abort()
	if got := dirNames(t, out); !slices.Equal(got, []string{MarkerName, "a.txt", "b.txt"}) {
		t.Errorf("first report: %v", got)
	}
	if m, err := os.ReadFile(filepath.Join(out, MarkerName)); err != nil || string(m) != markerHeader+"\na.txt\nb.txt\n" {
		t.Errorf("marker %q, %v", m, err)
	}
	d = stage(t, out, "a.txt", "c.txt")
	if err := d.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := dirNames(t, out); !slices.Equal(got, []string{MarkerName, "a.txt", "c.txt"}) {
		t.Errorf("second report: %v, want b.txt gone", got)
	}
	d = stage(t, out, "z.txt")
	if err := os.WriteFile(filepath.Join(out, "mine.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := d.Commit()
	if err == nil || !run.IsBadInput(err) || !strings.Contains(err.Error(), "mine.txt") {
		t.Errorf("a file put there during the run: Commit = %v, want bad input naming it", err)
	}
	if got := dirNames(t, out); !slices.Contains(got, "mine.txt") || slices.Contains(got, "z.txt") {
		t.Errorf("after the refused commit: %v", got)
	}
	if got := dirNames(t, parent); !slices.Equal(got, []string{"report"}) {
		t.Errorf("the parent holds %v, want the report alone (no staging left)", got)
	}
	if _, err := CreateDir(out); err == nil || !run.IsBadInput(err) {
		t.Errorf("CreateDir over a folder holding another's file: %v", err)
	}
}
