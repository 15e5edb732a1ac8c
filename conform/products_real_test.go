package conform

import (
	"os"
	"os/exec"
	"testing"
)

// productBinary is the path of a product's binary the real-product tests run
// (looked up on PATH, then at path), or, when it is not installed, a skip
// with the install hint; under CI (CI=true) a missing binary fails the test,
// since CI installs it (.ci/run) and must hold the lane to it.
func productBinary(t testing.TB, name, path, hint string) string {
	t.Helper()
	if bin, err := exec.LookPath(name); err == nil {
		return bin
	}
	if _, err := os.Stat(path); err == nil {
		return path
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("no %s: CI must hold the %s lane to the real binary (%s)", name, name, hint)
	}
	t.Skipf("no %s to test against: %s", name, hint)
	return ""
}
