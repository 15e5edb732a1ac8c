package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sampleLog = "../../replay/testdata/sample.log"

// TestReplayBadInput: every flag problem at once, exit 2, no stack trace.
func TestReplayBadInput(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"no limit", []string{"replay", sampleLog}, []string{"--limit: at least one is needed"}},
		{"all at once", []string{"replay", sampleLog, "--limit", "key=ipp limit=1", "--format", "xml", "--late", "-1s", "--tz", "Mars/Base", "--lane", "aimd"},
			[]string{`--limit "key=ipp limit=1": key: unknown key part "ipp"`, `limit: "1": want N/WINDOW`, `--format: unknown "xml"`,
				"--late: must not be negative", `--tz: unknown zone "Mars/Base"`, `--lane: "aimd" is not a lane a log can replay`}},
		{"missing file", []string{"replay", "no-such.log", "--limit", "key=ip limit=1/1s"}, []string{"no-such.log:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errOut := execute(t, tt.args...)
			if code != exitBadInput || strings.Contains(errOut, "goroutine") {
				t.Fatalf("exit %d, stderr %q; want 2 and no trace", code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q lacks %q", errOut, w)
				}
			}
		})
	}
}

// TestReplayOutputs: JSON names the top key; --out writes the three files and
// the same JSON.
func TestReplayOutputs(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "rep")
	code, out, errOut := execute(t, "replay", sampleLog, "--limit", "key=ip limit=100/1m burst=20", "--format", "json", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Requests int64
		Limits   []struct {
			Lanes []struct {
				Lane string
				Top  []struct{ Key string }
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	if res.Requests != 3000 || res.Limits[0].Lanes[0].Top[0].Key != "203.0.113.66" {
		t.Errorf("requests %d, top %+v; want 3000 and 203.0.113.66", res.Requests, res.Limits[0].Lanes[0].Top)
	}
	for _, name := range []string{"replay.txt", "replay.json", "replay.csv"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(data) == 0 {
			t.Errorf("%s: %v", name, err)
		}
		if name == "replay.json" && string(data) != out {
			t.Errorf("replay.json differs from what --format json printed")
		}
	}
}

// TestReplayProgressETA: the ETA is the remaining bytes at the rate so far
// (compressed bytes for gzip, which replay.Options.Progress counts), and none is
// claimed when the size is unknown (stdin).
func TestReplayProgressETA(t *testing.T) {
	tests := []struct {
		name                string
		lines, bytes, total int64
		elapsed             float64
		want                string
	}{
		{"a quarter in 10s", 1000, 250, 1000, 10, "\r1000 lines, 100 lines/s, ETA 30s   "},
		{"half in 2s", 500, 50, 100, 2, "\r500 lines, 250 lines/s, ETA 2s   "},
		{"stdin", 1000, 250, -1, 10, "\r1000 lines, 100 lines/s   "},
		{"no time yet", 10, 5, 100, 0, "\r10 lines   "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := replayProgress(tt.lines, tt.bytes, tt.total, tt.elapsed); got != tt.want {
				t.Errorf("replayProgress(%d, %d, %d, %v) = %q, want %q", tt.lines, tt.bytes, tt.total, tt.elapsed, got, tt.want)
			}
		})
	}
}

// TestReplayWhere: --find picks by every --where, which the JSON's own rows
// confirm; bad --where flags are named, all at once, exit 2.
func TestReplayWhere(t *testing.T) {
	code, out, errOut := execute(t, "replay", sampleLog, "--limit", "key=ip limit=100/1m burst=20",
		"--vary", "limits[0].limit=10..100/30", "--find", "min limits[0].limit", "--where", "keys_refused <= 1", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var res struct {
		Sweep []struct {
			Value       int64
			Lane        string
			KeysRefused int `json:"keys_refused"`
		}
		Smallest map[string]int64
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{}
	for _, p := range res.Sweep {
		if _, ok := want[p.Lane]; !ok {
			want[p.Lane] = 0
		}
		if p.KeysRefused <= 1 && (want[p.Lane] == 0 || p.Value < want[p.Lane]) {
			want[p.Lane] = p.Value
		}
	}
	if len(want) != 6 || len(res.Smallest) != 6 {
		t.Fatalf("smallest %v from rows %v, want six lanes", res.Smallest, want)
	}
	for lane, v := range want {
		if res.Smallest[lane] != v {
			t.Errorf("%s: smallest %d, want %d (the rows: %+v)", lane, res.Smallest[lane], v, res.Sweep)
		}
	}
	code, _, errOut = execute(t, "replay", sampleLog, "--limit", "key=ip limit=100/1m",
		"--where", "keys_refused <= 0", "--where", "lane aimd legit <= 5%")
	for _, w := range []string{"--where: needs --vary and --find", "--where lane aimd legit <= 5%: aimd is not a lane replayed",
		`--where lane aimd legit <= 5%: unknown metric "legit"`} {
		if code != exitBadInput || !strings.Contains(errOut, w) {
			t.Errorf("exit %d, stderr %q; want 2 and %q", code, errOut, w)
		}
	}
}
