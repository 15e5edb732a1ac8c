package replay

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/run"
)

func commandOptions(t *testing.T) Options {
	t.Helper()
	o, err := Flags{Limits: []string{"key=ip limit=10/1m burst=5"}, LogFormat: "auto", TZ: "UTC", Late: 5 * time.Second,
		LegitBelow: 0.5, Top: 10, Format: "text"}.Options()
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestCommandRun: the output in the format asked for, the report folder
// beside it, warnings to Warn, and the progress line cleared.
func TestCommandRun(t *testing.T) {
	log, err := os.ReadFile("testdata/sample.log")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(log), "\n")[:20]
	stdin := strings.Join(lines, "") + strings.Repeat("not a log line\n", 5) // 20% bad: a warning
	var out, warn, progress bytes.Buffer
	dir := filepath.Join(t.TempDir(), "report")
	c := Command{Stdin: strings.NewReader(stdin), Out: &out, Warn: &warn, Progress: &progress,
		Clock: func() time.Time { return time.Unix(0, 0) }, Format: "json", Dir: dir}
	o := commandOptions(t)
	o.ProgressEvery = 1
	if err := c.Run(context.Background(), []string{"-"}, o); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), "{") {
		t.Errorf("--format json wrote %q", out.String())
	}
	if got, err := os.ReadFile(filepath.Join(dir, "replay.json")); err != nil || string(got) != out.String() {
		t.Errorf("replay.json = %v, differs from the output", err)
	}
	if !strings.HasPrefix(warn.String(), "rlsim replay: read as combined (detected") ||
		!strings.Contains(warn.String(), "\nrlsim replay: warning: 5 of 25 lines (20.0%) did not parse") {
		t.Errorf("warnings %q", warn.String())
	}
	if !strings.Contains(progress.String(), " lines") || !strings.HasSuffix(progress.String(), "\r\033[K") {
		t.Errorf("progress %q: want lines counted, then the line cleared", progress.String())
	}
}

// TestCommandRunBadInput: a log that cannot be opened, or in which no line
// parses, is the input's fault.
func TestCommandRunBadInput(t *testing.T) {
	c := Command{Out: &bytes.Buffer{}, Format: "text"}
	for _, tc := range []struct {
		names []string
		stdin string
	}{
		{[]string{"testdata/no-such.log"}, ""},
		{[]string{"-"}, "not a log line\n"},
	} {
		c.Stdin = strings.NewReader(tc.stdin)
		err := c.Run(context.Background(), tc.names, commandOptions(t))
		var ie *run.InputError
		if !errors.As(err, &ie) {
			t.Errorf("Run(%q) = %v, want an *run.InputError", tc.names, err)
		}
	}
}
