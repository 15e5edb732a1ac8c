package run

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// A trace sent to a writer (--trace -) is, byte for byte, the JSON-lines
// file the same records make, and leaves no temporary file behind; a file
// trace is put in place readable by all (0644), its temporary gone.
func TestTraceToAWriterIsTheJSONLFile(t *testing.T) {
	recs := []sim.TraceRecord{
		{At: 5 * time.Millisecond, Lane: sim.LaneTokenBucket, LaneName: "token_bucket", Event: sim.TraceAdmit, Client: 3, Limit: "per user", Remaining: 4},
		{At: 7 * time.Millisecond, Lane: sim.LaneGCRA, LaneName: "gcra", LaneIndex: 1, Event: sim.TraceRefuse, Client: 1, RetryAfter: time.Second, Shadow: "x\"y"},
	}
	write := func(tr *TraceFile) {
		t.Helper()
		for _, scen := range []string{"first", "second,one"} {
			s := tr.Sink(scen)
			for i := range recs {
				r := recs[i]
				if err := s.Record(&r); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := tr.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	toW, err := CreateTraceTo(&out)
	if err != nil {
		t.Fatal(err)
	}
	tmp := toW.tmp.Name()
	write(toW)
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("the temporary file %s of a trace to a writer is still there (%v)", tmp, err)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "t.jsonl")
	file, err := CreateTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	write(file)
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 || !bytes.Equal(out.Bytes(), want) {
		t.Errorf("trace to a writer:\n%s\nthe .jsonl file:\n%s", out.Bytes(), want)
	}
	if n := bytes.Count(want, []byte("\n")); n != 2*len(recs) {
		t.Errorf("the trace has %d lines, want %d", n, 2*len(recs))
	}
	info, err := os.Stat(path)
	if err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("trace file mode %v (%v), want 0644", info.Mode().Perm(), err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the trace's directory holds %d entries, want the trace alone", len(entries))
	}
}
