package output

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

// Seeds' error counts the checks that failed first, then all checks: one
// of three is met here (quiet tenants get under half their share).
func TestSeedsErrorSaysFailedOfAll(t *testing.T) {
	src, ok := scenarios.BuiltinSource("noisy-neighbour")
	if !ok {
		t.Fatal("no noisy-neighbour")
	}
	file := filepath.Join(t.TempDir(), "nn.yaml")
	checks := "checks:\n" +
		"  - {class: quiet, metric: success_rate, op: \">=\", value: 0%}\n" +
		"  - {class: quiet, metric: success_rate, op: \">=\", value: 99%}\n" +
		"  - {class: noisy, metric: success_rate, op: \">=\", value: 99%}\n"
	if err := os.WriteFile(file, append(src, []byte(checks)...), 0o644); err != nil {
		t.Fatal(err)
	}
	ov := run.Overrides{Lanes: "fixed_window", MaxEvents: run.DefaultMaxEvents}
	err := Seeds(context.Background(), io.Discard, []string{file}, 2, ov, SweepOptions{Format: "table"})
	if err == nil || !strings.Contains(err.Error(), "2 of 3 checks failed on the means over 2 seeds") {
		t.Errorf("Seeds = %v, want 2 of 3 checks failed on the means over 2 seeds", err)
	}
}
