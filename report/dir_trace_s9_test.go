package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// A --trace whose folder is missing, or is a file, is an output path to fix,
// refused before anything runs (status 2), as --out's is.
func TestTraceFolderMustBeOne(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	for _, trace := range []string{filepath.Join(dir, "missing", "t.csv"), filepath.Join(file, "t.csv")} {
		err := CheckTrace(trace, "")
		if err == nil || !run.IsBadInput(err) || !strings.Contains(err.Error(), "is not a folder to write it in") {
			t.Errorf("CheckTrace(%s) = %v, want bad input naming the folder", trace, err)
		}
	}
	if err := CheckTrace(filepath.Join(dir, "t.csv"), ""); err != nil {
		t.Errorf("a trace in an existing folder: %v", err)
	}
}
