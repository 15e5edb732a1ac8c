package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunOutNamesARepeatedScenariosPlotsFromTwo: the report folder of a
// scenario given twice names the second run's plots NAME-2-FIGURE.png, so
// neither overwrites the other and the first keeps its plain name.
func TestRunOutNamesARepeatedScenariosPlotsFromTwo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "r")
	code, out, errOut := execute(t, "run", "boundary-burst", "boundary-burst", "--lanes", "fixed_window", "--out", dir)
	if code != exitOK {
		t.Fatalf("run --out = %d, %q, %q", code, out, errOut)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	first, second := 0, 0
	for _, e := range entries {
		n := e.Name()
		switch {
		case strings.HasPrefix(n, "boundary-burst-2-") && strings.HasSuffix(n, ".png"):
			second++
		case strings.HasPrefix(n, "boundary-burst-1-"):
			t.Errorf("%s: the second run is numbered from 2", n)
		case strings.HasPrefix(n, "boundary-burst-") && strings.HasSuffix(n, ".png"):
			first++
		}
	}
	if first == 0 || first != second {
		t.Errorf("%d plots of the first run, %d of the second (NAME-2-…); want as many, at least one: %v", first, second, entries)
	}
}
