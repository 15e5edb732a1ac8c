package replay

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/run"
)

// TestScenarioCommandWritesWhereAsked: --to - writes the scenario to Out
// (a file named "-" in the folder is no concern of it); --to FILE writes the
// file, replaces one rlsim wrote and refuses, untouched, one it did not or a
// folder; the fit, and the first attempts' fit when the log retried, go to Err.
func TestScenarioCommandWritesWhereAsked(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	log := jsonText(retryLog([]time.Duration{700 * time.Millisecond}, []int{429}, nil))
	if err := os.WriteFile("access.jsonl", log, 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := []byte("my own notes\n")
	for _, name := range []string{"-", "notes.yaml"} {
		if err := os.WriteFile(name, foreign, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir("folder", 0o755); err != nil {
		t.Fatal(err)
	}
	want, err := Derive(context.Background(), []Input{{Name: "access.jsonl", R: bytes.NewReader(log)}}, DeriveOptions{Names: []string{"access.jsonl"}})
	if err != nil {
		t.Fatal(err)
	}
	errWant := fmt.Sprintf("rlsim replay: %d keys into %d client groups, about %d events; fit: %s\n",
		len(want.Fit.LogRates), len(want.Groups), want.Estimate, want.Fit.Line())
	retries := fmt.Sprintf("rlsim replay: fit to first attempts only (without the log's %d retries): %s\n", want.Retries, want.FirstFit.Line())
	if want.Retries == 0 {
		t.Fatal("the synthetic log retries; Derive counted none")
	}

	var out, errs bytes.Buffer
	c := ScenarioCommand{Out: &out, Err: &errs, To: "-"}
	if err := c.Run(context.Background(), []string{"access.jsonl"}, DeriveOptions{}); err != nil {
		t.Fatalf("--to -: %v", err)
	}
	if !bytes.Equal(out.Bytes(), want.YAML) || errs.String() != errWant+retries {
		t.Errorf("--to -: out %d bytes (want %d), err %q, want %q", out.Len(), len(want.YAML), errs.String(), errWant+retries)
	}

	out.Reset()
	errs.Reset()
	c = ScenarioCommand{Out: &out, Err: &errs, To: "new.yaml"}
	if err := c.Run(context.Background(), []string{"access.jsonl"}, DeriveOptions{}); err != nil {
		t.Fatalf("--to new.yaml: %v", err)
	}
	if got, _ := os.ReadFile("new.yaml"); !bytes.Equal(got, want.YAML) || out.Len() != 0 || !strings.HasPrefix(string(got), ScenarioMarker) {
		t.Errorf("--to new.yaml: the file is %d bytes (want %d), out %q", len(got), len(want.YAML), out.String())
	}
	if err := os.WriteFile("new.yaml", []byte(ScenarioMarker+"\nold: true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.Run(context.Background(), []string{"access.jsonl"}, DeriveOptions{}); err != nil {
		t.Fatalf("--to over rlsim's own file: %v", err)
	}
	if got, _ := os.ReadFile("new.yaml"); !bytes.Equal(got, want.YAML) {
		t.Errorf("rlsim's own file was not replaced")
	}

	for _, c := range []struct{ to, words string }{
		{"notes.yaml", "the file exists and rlsim did not write it"},
		{"folder", "is a folder"},
	} {
		errs.Reset()
		cmd := ScenarioCommand{Out: &out, Err: &errs, To: c.to}
		err := cmd.Run(context.Background(), []string{"access.jsonl"}, DeriveOptions{})
		if !run.IsBadInput(err) || !strings.Contains(err.Error(), "--to-scenario "+c.to+": "+c.words) || errs.Len() != 0 {
			t.Errorf("--to %s: %v, err %q; want bad input saying %q before any work", c.to, err, errs.String(), c.words)
		}
	}
	if got, _ := os.ReadFile("notes.yaml"); !bytes.Equal(got, foreign) {
		t.Errorf("the foreign file was changed: %q", got)
	}
	if got, _ := os.ReadFile("-"); !bytes.Equal(got, foreign) {
		t.Errorf("the file named - was changed: %q", got)
	}

	err = ScenarioCommand{Out: &out, Err: &errs, To: "-"}.Run(context.Background(), []string{filepath.Join(dir, "none.jsonl")}, DeriveOptions{})
	if !run.IsBadInput(err) || !strings.Contains(err.Error(), "none.jsonl") {
		t.Errorf("a missing log: %v, want bad input naming it", err)
	}
	err = ScenarioCommand{Out: &out, Err: &errs, To: "-", Stdin: strings.NewReader("not a log line\n")}.Run(context.Background(), []string{"-"}, DeriveOptions{})
	if !run.IsBadInput(err) {
		t.Errorf("a log of no request: %v, want bad input", err)
	}
}
