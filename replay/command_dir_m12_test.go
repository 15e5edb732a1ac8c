package replay

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCommandRunFolderBeforeOutput: Run writes the report folder, then the
// output (its doc's order): a folder that cannot be written (its path is a
// file) fails the run, naming the path, and nothing is written to Out; a
// folder written holds the output in each format asked for.
func TestCommandRunFolderBeforeOutput(t *testing.T) {
	log, err := os.ReadFile("testdata/sample.log")
	if err != nil {
		t.Fatal(err)
	}
	stdin := strings.Join(strings.SplitAfter(string(log), "\n")[:20], "")
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"text": "replay.txt", "json": "replay.json", "csv": "replay.csv"} // WriteDir's doc
	for format, file := range files {
		var out bytes.Buffer
		c := Command{Stdin: strings.NewReader(stdin), Out: &out, Format: format, Dir: filepath.Join(blocked, "report")}
		err := c.Run(context.Background(), []string{"-"}, commandOptions(t))
		if err == nil || !strings.Contains(err.Error(), blocked) {
			t.Errorf("--format %s into a folder under a file: err %v, want one naming %s", format, err, blocked)
		}
		if out.Len() != 0 {
			t.Errorf("--format %s: the folder failed but %d bytes of output were written", format, out.Len())
		}
		dir := filepath.Join(t.TempDir(), "report")
		out.Reset()
		c = Command{Stdin: strings.NewReader(stdin), Out: &out, Format: format, Dir: dir}
		if err := c.Run(context.Background(), []string{"-"}, commandOptions(t)); err != nil {
			t.Fatalf("--format %s: %v", format, err)
		}
		got, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil || string(got) != out.String() {
			t.Errorf("--format %s: the folder's file (%v) differs from the output", format, err)
		}
	}
}
