package replay

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// TestCommandShardsThenMergeAsRun: rlsim replay --shard i/n of a log file,
// each partial written to a file, merged by RunMerge, prints what Run prints
// in one pass, in each format, with the warnings (the format detected is the
// shards' to tell) and, with --out, a report
// folder; RunShard refuses a missing log and a replay without a shard.
func TestCommandShardsThenMergeAsRun(t *testing.T) {
	dir := t.TempDir()
	var log bytes.Buffer
	writeShardLog(&log, 400, 7, true)
	path := filepath.Join(dir, "access.log")
	if err := os.WriteFile(path, log.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	f := shardFlags(false)
	o, err := f.Options()
	if err != nil {
		t.Fatal(err)
	}
	for _, format := range []string{"text", "json", "csv"} {
		var whole, warnWhole bytes.Buffer
		c := Command{Out: &whole, Warn: &warnWhole, Format: format, Find: f.Find != ""}
		if err := c.Run(context.Background(), []string{path}, o); err != nil {
			t.Fatal(err)
		}
		var parts []string
		for i := range 3 {
			so := o
			so.Shard = Shard{i, 3}
			sf := f
			sf.Shard = so.Shard.String()
			var b bytes.Buffer
			if err := (Command{Out: &b, Format: format}).RunShard(context.Background(), []string{path}, sf, so); err != nil {
				t.Fatalf("shard %d: %v", i, err)
			}
			p := filepath.Join(dir, fmt.Sprintf("%s-%d.json", format, i))
			if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			parts = append(parts, p)
		}
		var merged, warnMerged bytes.Buffer
		out := filepath.Join(dir, "report-"+format)
		if err := (Command{Out: &merged, Warn: &warnMerged, Format: format, Dir: out}).RunMerge(parts); err != nil {
			t.Fatal(err)
		}
		if merged.String() != whole.String() {
			t.Errorf("%s: merged\n%s\nwant one pass's\n%s", format, merged.String(), whole.String())
		}
		if warnMerged.String() != warningsOnly(warnWhole.String()) || warnMerged.Len() == 0 {
			t.Errorf("%s: warnings merged %q, one pass %q (the log has bad lines)", format, warnMerged.String(), warnWhole.String())
		}
		if _, err := os.Stat(filepath.Join(out, "report.html")); err != nil {
			t.Errorf("%s: --out of the merge: %v", format, err)
		}
	}
	so := o
	so.Shard = Shard{0, 2}
	err = (Command{Out: &bytes.Buffer{}}).RunShard(context.Background(), []string{filepath.Join(dir, "none.log")}, f, so)
	if !run.IsBadInput(err) || !strings.Contains(err.Error(), "none.log") {
		t.Errorf("a missing log: %v", err)
	}
	if err := (Command{Out: &bytes.Buffer{}}).RunShard(context.Background(), []string{path}, f, o); err == nil {
		t.Error("RunShard without a shard: no error")
	}
	if err := (Command{Out: &bytes.Buffer{}}).RunMerge([]string{filepath.Join(dir, "none.json")}); err == nil {
		t.Errorf("RunMerge of a missing partial: %v", err)
	}
}

// warningsOnly are the lines of w that are warnings.
func warningsOnly(w string) string {
	var out []string
	for _, l := range strings.SplitAfter(w, "\n") {
		if strings.Contains(l, "warning: ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}
