package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileInputEndsCleanly runs each file of testdata/bounds, inputs that once
// panicked, ran out of memory, hung or were silently accepted, through the CLI:
// each must end with exit 2, the message given, nothing on stdout and no file
// written. The event budget, not a timer, bounds the work of those that run.
func TestHostileInputEndsCleanly(t *testing.T) {
	budgetStop := "nothing was written; to finish, lift the budget with --max-events above"
	tests := []struct {
		file string
		want string // in stderr, after "file:"
	}{
		{"bucket-1ns", "12: bucket: 1ns makes 2000000000 time-series buckets over 2s; at most 1000000"},
		{"burst-count-1e9", " about 8,000,000,000 events estimated, over the budget of 1,000,000"},
		{"burst-max", "3: limits[0]: token bucket: burst 9223372036854775807 at 1 per 100ms overflows exact int64 arithmetic"},
		{"clients-1e9", "8: clients[0].count: must be at most 10000000, got 1000000000"},
		{"contention-hop-1000000h", `4: contention.hop: "1000000h" is more than 100 years (876000h)`},
		{"contention-runs-1e9", "4: contention.runs: must be at most 1000000, got 1000000000"},
		{"contention-runs-1e6", " about 1,377,142,857 events estimated, over the budget of 1,000,000"},
		{"duration-2500000h", `1: duration: "2500000h" is more than 100 years (876000h), the longest a scenario may state`},
		{"lanes-empty", "12: lanes: at least one lane is needed"},
		{"on-off-1ns", " about 4,000,000,000 events estimated, over the budget of 1,000,000"},
		{"override-burst-below-cost", "16: overrides[0].burst: 2 is below the cost 5 of clients[0]"},
		{"queue-max", "14: backend.queue: must be at most 10000000, got 9223372036854775807"},
		{"rate-negative-period", `10: clients[0].arrivals[0].rate: "10/-1s" is not a rate (period must be positive)`},
		{"retry-exponential-1ns", " about 720,000,000,800 events estimated, over the budget of 1,000,000"},
		{"retry-fixed-1ns", " about 720,000,000,800 events estimated, over the budget of 1,000,000"},
		{"retry-immediate-uncapped", " about 640,000,000,160 events estimated, over the budget of 1,000,000"},
		{"service-2000000h", `15: backend.service.mean: "2000000h" is more than 100 years (876000h)`},
		{"sliding-log-limit-2e9", "3: limits[0]: sliding log: limit 2000000000 is above 1073741824"},
		{"tag-binary", "12: description: YAML tags like !!binary are not part of the scenario format"},
		{"tag-custom", "12: description: YAML tags like !custom are not part of the scenario format"},
		{"two-documents", "12: a second YAML document (after ---): a scenario file holds one"},
		{"window-1000000h", `5: limits[0].window: "1000000h" is more than 100 years (876000h)`},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			file := filepath.Join("testdata", "bounds", tc.file+".yaml")
			dir := t.TempDir()
			code, out, errOut := execute(t, "run", file, "--max-events", "1000000", "--out", filepath.Join(dir, "r"), "--trace", filepath.Join(dir, "t.csv"))
			if code != exitBadInput || out != "" {
				t.Errorf("exit %d, stdout %q; want exit %d and nothing", code, out, exitBadInput)
			}
			if !strings.Contains(errOut, file+":"+tc.want) {
				t.Errorf("stderr lacks %q:\n%s", file+":"+tc.want, errOut)
			}
			if strings.Contains(tc.want, "the run stopped") && !strings.Contains(errOut, budgetStop) {
				t.Errorf("stderr lacks %q:\n%s", budgetStop, errOut)
			}
			if strings.Contains(errOut, "goroutine") {
				t.Errorf("stack trace:\n%s", errOut)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 0 {
				t.Errorf("files written: %v", entries)
			}
		})
	}
}

// TestRunStopsAtTheBudget runs a scenario whose estimate is under the budget
// and whose real count is over it: the run stops there and writes nothing.
func TestRunStopsAtTheBudget(t *testing.T) {
	dir := t.TempDir()
	code, out, errOut := execute(t, "run", "demo", "--max-events", "1400", "--out", filepath.Join(dir, "r"), "--trace", filepath.Join(dir, "t.csv"))
	want := "demo.yaml: the run stopped after the budget of 1400 events, in lane "
	if code != exitBadInput || out != "" || !strings.Contains(errOut, want) || !strings.Contains(errOut, "nothing was written; to finish, lift the budget with --max-events above") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("files written: %v", entries)
	}
}

// TestValidateMeansRunStarts holds validate to its promise: a file it calls ok is
// one run starts, and a file run refuses before starting is one it refuses too.
func TestValidateMeansRunStarts(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("testdata", "bounds"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		file := filepath.Join("testdata", "bounds", e.Name())
		t.Run(e.Name(), func(t *testing.T) {
			vcode, _, verr := execute(t, "validate", file, "--max-events", "1000000")
			rcode, _, rerr := execute(t, "run", file, "--max-events", "1000000")
			started := rcode == 0 || strings.Contains(rerr, "the run stopped after the budget")
			if (vcode == 0) != started {
				t.Errorf("validate exit %d (%s), run: %s", vcode, verr, rerr)
			}
		})
	}
}

// TestBudgetAdmitsWhatFinishes: 1.6 million requests over eight lanes are 12.8
// million events, under the default budget (once refused at four per arrival).
func TestBudgetAdmitsWhatFinishes(t *testing.T) {
	file := filepath.Join("testdata", "bounds", "requests-1.6M.yaml")
	if code, out, errOut := execute(t, "validate", file); code != 0 || out != file+": ok\n" {
		t.Errorf("exit %d, %q %q", code, out, errOut)
	}
}

func TestSilentAcceptancesAreErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"run", "--lanes", "gcra,gcra"}, "--lanes: gcra is named twice: each lane runs once"},
		{[]string{"run", "--max-events", "-1"}, "--max-events: must be positive, got -1"},
		{[]string{"run", "--max-events", "0"}, "--max-events: must be positive, got 0"},
		{[]string{"validate", "demo", "--max-events", "-1"}, "--max-events: must be positive, got -1"},
		{[]string{"tui", "--max-events", "-1"}, "--max-events: must be positive, got -1"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := execute(t, tc.args...)
			if code != exitBadInput || out != "" || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, tc.want)
			}
		})
	}
}

// TestHugeFileRefusedUnread writes a 50 MB scenario file: it is refused by its
// size, with the cap in the message, without being parsed.
func TestHugeFileRefusedUnread(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.yaml")
	data := bytes.Repeat([]byte("# padding padding padding padding padding padding\n"), 50<<20/50)
	if err := os.WriteFile(path, append([]byte("clients: [{arrivals: [{kind: burst, count: 1}]}]\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut := execute(t, "validate", path)
	want := path + ": larger than 10 MB, the most a scenario file may hold"
	if code != exitBadInput || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr %q; want exit 2 and %q", code, errOut, want)
	}
}
