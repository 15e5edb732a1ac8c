package run

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// fullRecord sets every field a trace writes, each to a value of its own.
func fullRecord() *sim.TraceRecord {
	return &sim.TraceRecord{At: 1001, LaneName: `tb "x", y`, Event: sim.TraceRefuse, Client: 7, Class: "users<&>",
		Key: "ip:10.0.0.1", Request: 12, Attempt: 3, Cost: 2, Delay: 40, RetryAfter: 50, Limit: "per,user",
		Shadow: "canary", Shedder: "utilisation", Latency: 60, Concurrency: true, ConcurrencyLimit: 12.5, InFlight: 9,
		Throttled: true, DropProbability: 0.25, Replica: 4, Shard: 5, Answered: true, Remaining: 8, Reset: 70,
		Store: sim.StoreTimedOut, StoreLatency: 80}
}

// fullWant is each column of fullRecord as the trace writes it (JSON values
// as Go values from encoding/json).
var fullWant = map[string]any{"scenario": "sc", "at_ns": 1001.0, "lane": `tb "x", y`, "event": sim.TraceRefuse.String(),
	"client": 7.0, "class": "users<&>", "key": "ip:10.0.0.1", "request": 12.0, "attempt": 3.0, "cost": 2.0,
	"delay_ns": 40.0, "retry_after_ns": 50.0, "limit": "per,user", "remaining": 8.0, "reset_ns": 70.0,
	"latency_ns": 60.0, "shadow": "canary", "replica": 4.0, "concurrency_limit": 12.5, "in_flight": 9.0,
	"drop_probability": 0.25, "shedder": "utilisation", "shard": 5.0,
	"store": sim.StoreTimedOut.String(), "store_ns": 80.0}

// bareRecord leaves every optional column out.
func bareRecord() *sim.TraceRecord {
	return &sim.TraceRecord{Event: sim.TraceAdmit, Replica: -1, Shard: -1}
}

var bareNulls = []string{"remaining", "replica", "concurrency_limit", "in_flight", "drop_probability", "shard", "store_ns"}

func writeTrace(t *testing.T, name string) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	tr, err := CreateTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	sink := tr.Sink("sc")
	zero := &sim.TraceRecord{Event: sim.TraceAdmit, Answered: true} // replica 0, shard 0, remaining 0
	for _, r := range []*sim.TraceRecord{fullRecord(), bareRecord(), zero} {
		if err := sink.Record(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.Commit(); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o644 {
		t.Errorf("the trace is an ordinary file: %v %v", st.Mode(), err)
	}
	data, _ := os.ReadFile(path)
	return data
}

func TestTraceJSONLinesHoldEveryField(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(string(writeTrace(t, "t.jsonl")), "\n"), "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines, want 3", len(lines))
	}
	var zero map[string]any
	if err := json.Unmarshal([]byte(lines[2]), &zero); err != nil {
		t.Fatal(err)
	}
	for _, col := range []string{"replica", "shard", "remaining"} {
		if zero[col] != 0.0 {
			t.Errorf("%s 0 is written 0, got %v", col, zero[col])
		}
	}
	var full, bare map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &full); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(lines[1]), &bare); err != nil {
		t.Fatal(err)
	}
	if len(full) != len(traceColumns) {
		t.Errorf("%d keys, want %d", len(full), len(traceColumns))
	}
	for col, want := range fullWant {
		if full[col] != want {
			t.Errorf("%s = %v, want %v", col, full[col], want)
		}
	}
	for _, col := range bareNulls {
		if v, ok := bare[col]; !ok || v != nil {
			t.Errorf("bare %s = %v (present %v), want null", col, v, ok)
		}
	}
	if bare["shadow"] != "" || bare["at_ns"] != 0.0 {
		t.Errorf("bare record: %v", bare)
	}
}

func TestTraceCSVHoldsEveryField(t *testing.T) {
	rows, err := csv.NewReader(bytes.NewReader(writeTrace(t, "t.CSV"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 4 || strings.Join(rows[0], ",") != strings.Join(traceColumns, ",") {
		t.Fatalf("rows %v", rows)
	}
	for i, col := range rows[0] {
		want := fullWant[col]
		if f, ok := want.(float64); ok {
			want = strconv.FormatFloat(f, 'g', -1, 64)
		}
		if rows[1][i] != want {
			t.Errorf("%s = %q, want %v", col, rows[1][i], want)
		}
	}
	for i, col := range rows[0] {
		for _, n := range bareNulls {
			if col == n && rows[2][i] != "" {
				t.Errorf("bare %s = %q, want empty", col, rows[2][i])
			}
		}
	}
}

func TestTraceToAWriterAndAbort(t *testing.T) {
	var out bytes.Buffer
	tr, err := CreateTraceTo(&out)
	if err != nil {
		t.Fatal(err)
	}
	if err := tr.Sink("sc").Record(bareRecord()); err != nil {
		t.Fatal(err)
	}
	if out.Len() != 0 {
		t.Errorf("nothing is written before Commit")
	}
	if err := tr.Commit(); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.String(), `{"scenario":"sc",`) || strings.Count(out.String(), "\n") != 1 {
		t.Errorf("stdout trace %q", out.String())
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "t.ndjson")
	tr, err = CreateTrace(path)
	if err != nil {
		t.Fatal(err)
	}
	tr.Sink("sc").Record(bareRecord())
	tr.Abort()
	tr.Abort()
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Errorf("Abort left %v", left)
	}
	for path, want := range map[string]bool{"-": true, "a.json": true, "a.JSONL": true, "a.ndjson": true, "a.csv": false} {
		if got, err := TraceIsJSONL(path); got != want || err != nil {
			t.Errorf("TraceIsJSONL(%q) = %v, %v", path, got, err)
		}
	}
	if _, err := TraceIsJSONL("a.txt"); err == nil || !strings.Contains(err.Error(), "a.txt") {
		t.Errorf("TraceIsJSONL(a.txt): %v", err)
	}
}
