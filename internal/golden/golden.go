// Package golden compares test output with files under testdata/ and rewrites
// them when the test binary runs with -update (one package at a time:
// go test ./report -update).
package golden

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// The -update flag is shared with github.com/charmbracelet/x/exp/golden, which
// the tui's teatest imports and which defines it too; whichever package
// initialises first defines it (x/exp/golden sorts, and so runs, first).
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite the golden files under testdata/")
	}
}

// Updating reports whether the test binary runs with -update.
func Updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// Check compares got with the file at path, or rewrites the file with -update.
func Check(t testing.TB, path string, got []byte) {
	t.Helper()
	CheckFunc(t, path, got, func(got, want []byte) (bool, error) { return bytes.Equal(got, want), nil })
}

// CheckFunc is Check with another notion of equal, such as an image tolerance.
// When they differ, got is saved in the system's temporary folder for a look.
func CheckFunc(t testing.TB, path string, got []byte, equal func(got, want []byte) (bool, error)) {
	t.Helper()
	if Updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test -update writes it)", err)
	}
	ok, err := equal(got, want)
	if err != nil {
		t.Fatal(err)
	}
	if ok {
		return
	}
	saved := filepath.Join(os.TempDir(), "got-"+filepath.Base(path))
	os.WriteFile(saved, got, 0o644)
	if bytes.IndexByte(want, 0) >= 0 || bytes.IndexByte(got, 0) >= 0 {
		t.Errorf("%s differs from the golden file (got saved as %s; go test -update rewrites it)", path, saved)
		return
	}
	t.Errorf("%s differs from the golden file (go test -update rewrites it):\n--- got\n%s\n--- want\n%s", path, got, want)
}
