package output

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// TestRunsThatFailLeaveNothing holds Runs' promise "either everything is
// written or nothing": a run that fails leaves no trace, no temporary trace
// and no report folder behind, for a trace of each kind.
func TestRunsThatFailLeaveNothing(t *testing.T) {
	for _, name := range []string{"trace.csv", "trace.jsonl"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			ov := run.Overrides{Lanes: "fixed_window", MaxEvents: run.DefaultMaxEvents}
			list, err := ov.Load([]string{"noisy-neighbour"})
			if err != nil {
				t.Fatal(err)
			}
			o := RunOptions{Format: "table", Trace: filepath.Join(dir, name), Dir: filepath.Join(dir, "report")}
			o.Run.MaxEvents = 1 // the run is refused, after the trace was opened
			var out bytes.Buffer
			if _, err := Runs(context.Background(), &out, list, o); err == nil {
				t.Fatal("Runs with a budget of 1 event: no error")
			}
			left, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range left {
				t.Errorf("a failed run left %s in its folder", e.Name())
			}
			if out.Len() != 0 {
				t.Errorf("a failed run wrote %q", out.String())
			}
		})
	}
}
