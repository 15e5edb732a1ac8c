package output

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
	"github.com/rlsim/rlsim/scenarios"
)

// TestSweepsWritesTheFolderThenTheOutput: with --out, the report folder and
// the table; a format that is no sweep's, a folder that cannot be made and one
// that holds another's file are refused with nothing written.
func TestSweepsWritesTheFolderThenTheOutput(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "report")
	var whole bytes.Buffer
	if err := Sweep(context.Background(), &whole, testSweep(sweep.Shard{}), SweepOptions{Format: "table", Dir: out}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "index.html")); err != nil {
		t.Errorf("--out: %v", err)
	}
	if !strings.Contains(whole.String(), "reproduce: rlsim sweep noisy-neighbour") {
		t.Errorf("the table was not written beside the folder:\n%s", whole.String())
	}
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "foreign")
	if err := os.MkdirAll(foreign, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(foreign, "mine.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ format, dir string }{
		{"xml", ""}, {"table", filepath.Join(file, "under")}, {"table", foreign},
	} {
		var b bytes.Buffer
		if err := Sweeps(&b, c.format, c.dir, 0, nil); err == nil || b.Len() != 0 {
			t.Errorf("Sweeps(%s, %s) = %v, wrote %d bytes; want an error and nothing", c.format, c.dir, err, b.Len())
		}
	}
	if _, err := os.Stat(filepath.Join(foreign, "index.html")); err == nil {
		t.Error("a report was written into a folder of another's")
	}
}

// TestMergeRefusesAtOnce: a missing partial and a report folder holding
// another's file are told together, as bad input; a --find on no vary is refused.
func TestMergeRefusesAtOnce(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "none.json")
	var b bytes.Buffer
	err := Merge(&b, []string{missing}, SweepOptions{Format: "table", Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "none.json") || !strings.Contains(err.Error(), "--out "+dir+": exists and does not hold an rlsim report") ||
		!run.IsBadInput(err) || b.Len() != 0 {
		t.Errorf("Merge: %v, want the partial and the folder named, nothing written", err)
	}
	var part bytes.Buffer
	if err := Sweep(context.Background(), &part, testSweep(sweep.Shard{Index: 0, Count: 1}), SweepOptions{Format: "table"}); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "part.json")
	if err := os.WriteFile(p, part.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	err = Merge(&b, []string{p}, SweepOptions{Format: "table", Find: "min limits[0].burst"})
	if err == nil || !strings.Contains(err.Error(), "limits[0].burst") || b.Len() != 0 {
		t.Errorf("Merge with --find on no vary: %v, wrote %q", err, b.String())
	}
}

// TestSeedsFailedChecksOnTheMeans: checks that fail on the means are the
// error, counted, after the output is written; a folder holding another's
// file is refused before any run.
func TestSeedsFailedChecksOnTheMeans(t *testing.T) {
	src, ok := scenarios.BuiltinSource("noisy-neighbour")
	if !ok {
		t.Fatal("no noisy-neighbour")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "checked.yaml")
	checks := "\nchecks:\n  - {metric: success_rate, op: \">=\", value: 0%}\n  - {metric: refused_rate, op: \">\", value: 100%}\n  - {metric: peak_ratio, op: \"<\", value: 0}\n"
	if err := os.WriteFile(path, append(src, checks...), 0o644); err != nil {
		t.Fatal(err)
	}
	ov := run.Overrides{Lanes: "fixed_window,token_bucket", MaxEvents: run.DefaultMaxEvents}
	var out bytes.Buffer
	err := Seeds(context.Background(), &out, []string{path}, 2, ov, SweepOptions{Format: "table"})
	// 2 lanes × 3 checks; the last two fail on each lane.
	want := fmt.Sprintf("rlsim: %d of %d checks failed on the means over 2 seeds", 2*2, 2*3)
	if !run.IsCheckFailed(err) || err.Error() != want || out.Len() == 0 {
		t.Errorf("Seeds = %v (check failed %v), wrote %d bytes; want %q after the output", err, run.IsCheckFailed(err), out.Len(), want)
	}
	if err := os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	err = Seeds(context.Background(), &out, []string{path}, 2, ov, SweepOptions{Format: "table", Dir: dir})
	var ie *run.InputError
	if !errors.As(err, &ie) || out.Len() != 0 {
		t.Errorf("Seeds into another's folder = %v, wrote %d bytes", err, out.Len())
	}
}
