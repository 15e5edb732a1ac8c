package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/rlsim/rlsim/internal/golden"
	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/sim"
)

// checkGolden compares got with the file testdata/name at the repository's root.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	golden.Check(t, filepath.Join("..", "..", "testdata", name), got)
}

// execute runs the command line args as mainRun does and returns the exit status,
// stdout and stderr.
func execute(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code := mainRun(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestRunFlags(t *testing.T) {
	seven := uint64(7)
	tests := []struct {
		name    string
		args    []string
		want    runOptions
		wantErr string
	}{
		{name: "no argument runs the demo", args: nil,
			want: runOptions{Args: []string{"demo"}, Format: "text", MaxEvents: defaultMaxEvents}},
		{name: "overrides", args: []string{"a.yaml", "b", "--seed", "7", "--duration", "2s", "--lanes", "gcra", "-f", "json", "--trace", "t.csv", "--max-events", "10", "--out", "rep"},
			want: runOptions{Args: []string{"a.yaml", "b"}, Format: "json", Seed: &seven, Duration: 2 * time.Second,
				Lanes: "gcra", TracePath: "t.csv", OutDir: "rep", MaxEvents: 10}},
		{name: "seed zero is a seed", args: []string{"--seed", "0"},
			want: runOptions{Args: []string{"demo"}, Format: "text", Seed: new(uint64), MaxEvents: defaultMaxEvents}},
		{name: "bad format", args: []string{"-f", "xml"}, wantErr: `--format: unknown value "xml" (want text, json, csv)`},
		{name: "bad duration", args: []string{"--duration", "-1s"}, wantErr: "--duration: must be positive, got -1s"},
		{name: "width", args: []string{"--width", "80"},
			want: runOptions{Args: []string{"demo"}, Format: "text", MaxEvents: defaultMaxEvents, Width: 80}},
		{name: "wide beats width", args: []string{"--width", "80", "--wide"},
			want: runOptions{Args: []string{"demo"}, Format: "text", MaxEvents: defaultMaxEvents, Wide: true}},
		{name: "bad width", args: []string{"--width", "-3"}, wantErr: "--width: must be 0 or more, got -3"},
		{name: "sets repeat and keep their commas", args: []string{"--set", "limits[0].limit=20", "--set", "lanes=[gcra,token_bucket]"},
			want: runOptions{Args: []string{"demo"}, Format: "text", MaxEvents: defaultMaxEvents,
				Sets: []string{"limits[0].limit=20", "lanes=[gcra,token_bucket]"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got *runOptions
			cmd := NewCmdRun(&bytes.Buffer{}, nil, func(o *runOptions) error { got = o; return nil })
			if tc.args == nil {
				tc.args = []string{}
			}
			cmd.SetArgs(tc.args)
			cmd.SetOut(&bytes.Buffer{})
			cmd.SetErr(&bytes.Buffer{})
			err := cmd.Execute()
			if tc.wantErr != "" {
				if err == nil || err.Error() != tc.wantErr || exitStatus(err) != exitBadInput {
					t.Fatalf("error = %v (status %d), want %q (status 2)", err, exitStatus(err), tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g := runOptions{Args: got.Args, Format: got.Format, Seed: got.Seed, Duration: got.Duration,
				Lanes: got.Lanes, TracePath: got.TracePath, OutDir: got.OutDir, MaxEvents: got.MaxEvents,
				Width: got.Width, Wide: got.Wide, Sets: got.Sets}
			if !reflect.DeepEqual(g, tc.want) {
				t.Errorf("options = %+v, want %+v", g, tc.want)
			}
		})
	}
}

func TestBadInputExitsWithTwoAndWritesNothing(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("duration: 5\nclients:\n  - arrivals:\n      - kind: constant\n        rate: 5/s\n    retry: {kind: exponential, jitter: fulll}\n"), 0o644)
	trace := filepath.Join(dir, "trace.csv")
	tests := []struct {
		name string
		args []string
		want []string // lines expected on stderr
	}{
		{"every problem of every file", []string{"run", bad, "nosuch", "--trace", trace}, []string{
			bad + `:1: duration: "5" has no unit: want a duration like 250ms, 1.5s or 2m`,
			bad + `:6: clients[0].retry.jitter: unknown value "fulll" (want none, full, equal, decorrelated); did you mean "full"?`,
			"nosuch: no such file, and no built-in scenario of that name",
		}},
		{"missing file", []string{"validate", filepath.Join(dir, "gone.yaml")}, []string{filepath.Join(dir, "gone.yaml") + ": no such file"}},
		{"misspelt built-in", []string{"run", "boundary-brust"}, []string{`did you mean "boundary-burst"?`}},
		{"unknown lane", []string{"run", "--lanes", "gcra,token_buckt", "--trace", trace}, []string{`--lanes: unknown lane "token_buckt"`}},
		{"budget", []string{"run", "steady-overload", "--max-events", "100", "--trace", trace},
			[]string{"steady-overload.yaml: about", "events estimated, over the budget of 100; shorten the scenario or lift the budget with --max-events"}},
		{"trace extension", []string{"run", "--trace", filepath.Join(dir, "t.txt")}, []string{"want a file name ending in .csv or .jsonl"}},
		{"contention takes no lanes", []string{"run", "backoff-contention", "--lanes", "gcra"}, []string{"--lanes does not apply to backoff-contention"}},
		{"unknown flag", []string{"run", "--sed", "1"}, []string{"unknown flag: --sed"}},
		{"unknown command", []string{"rnu"}, []string{`unknown command "rnu"`}},
		{"unknown built-in to show", []string{"scenarios", "show", "nope"}, []string{"nope: no built-in scenario of that name"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := execute(t, tc.args...)
			if code != exitBadInput {
				t.Errorf("exit status = %d, want %d; stderr:\n%s", code, exitBadInput, errOut)
			}
			if out != "" {
				t.Errorf("stdout = %q, want nothing", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errOut)
				}
			}
			if strings.Contains(errOut, "goroutine") || strings.Contains(errOut, "Usage:") {
				t.Errorf("stderr has a stack trace or usage:\n%s", errOut)
			}
			if entries, _ := os.ReadDir(dir); len(entries) != 1 {
				t.Errorf("files left in %s: %v, want only bad.yaml", dir, entries)
			}
		})
	}
}

func TestSameSeedSameJSON(t *testing.T) {
	for _, name := range []string{"demo", "backoff-contention"} {
		t.Run(name, func(t *testing.T) {
			_, a, _ := execute(t, "run", name, "--format", "json")
			_, b, _ := execute(t, "run", name, "--format", "json")
			_, c, errOut := execute(t, "run", name, "--format", "json", "--seed", "2")
			if a == "" || a != b {
				t.Errorf("two runs with the same seed differ (or are empty); stderr %s", errOut)
			}
			if a == c {
				t.Errorf("seed 2 gave the same JSON as seed 1")
			}
			var doc struct{ Version int }
			if err := json.Unmarshal([]byte(a), &doc); err != nil || doc.Version != report.JSONVersion {
				t.Errorf("JSON version = %d, %v; want %d", doc.Version, err, report.JSONVersion)
			}
		})
	}
}

// TestTraceRecomputesCounts checks the trace against the JSON it came with: the
// admitted, refused and delayed counts of every lane, recounted from the trace;
// choose-burst's lanes are three variants of one algorithm, told apart by name.
func TestTraceRecomputesCounts(t *testing.T) {
	for _, tc := range []struct{ scenario, ext string }{{"demo", "csv"}, {"demo", "jsonl"}, {"choose-burst", "csv"}} {
		scenario, ext := tc.scenario, tc.ext
		t.Run(scenario+"/"+ext, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "trace."+ext)
			code, out, errOut := execute(t, "run", scenario, "--format", "json", "--trace", path)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			var doc struct {
				Runs []struct {
					Lanes []struct {
						Lane                                      string
						Admitted, Refused, Delayed, Shed, Dropped int64
					}
				}
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			counts := map[string]map[string]int64{} // lane -> event -> count
			var records []map[string]string
			if ext == "csv" {
				rows, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
				if err != nil {
					t.Fatal(err)
				}
				for _, row := range rows[1:] {
					r := map[string]string{}
					for i, col := range rows[0] {
						r[col] = row[i]
					}
					records = append(records, r)
				}
			} else {
				for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
					var raw map[string]any
					if err := json.Unmarshal([]byte(line), &raw); err != nil {
						t.Fatalf("line %q: %v", line, err)
					}
					records = append(records, map[string]string{"lane": raw["lane"].(string), "event": raw["event"].(string)})
				}
			}
			for _, r := range records {
				if counts[r["lane"]] == nil {
					counts[r["lane"]] = map[string]int64{}
				}
				counts[r["lane"]][r["event"]]++
			}
			if len(counts) != len(doc.Runs[0].Lanes) {
				t.Errorf("the trace names %d lanes, the JSON has %d", len(counts), len(doc.Runs[0].Lanes))
			}
			for _, l := range doc.Runs[0].Lanes {
				c := counts[l.Lane]
				if got := c["admit"] + c["delay"]; got != l.Admitted {
					t.Errorf("%s: trace admits %d, JSON says %d", l.Lane, got, l.Admitted)
				}
				if c["refuse"] != l.Refused || c["delay"] != l.Delayed || c["shed"] != l.Shed || c["drop"] != l.Dropped {
					t.Errorf("%s: trace refuse/delay/shed/drop = %d/%d/%d/%d, JSON %d/%d/%d/%d", l.Lane,
						c["refuse"], c["delay"], c["shed"], c["drop"], l.Refused, l.Delayed, l.Shed, l.Dropped)
				}
			}
		})
	}
}

func TestInterruptLeavesNoFile(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	opts := &runOptions{Out: &out, Ctx: ctx, Args: []string{"demo"}, Format: "table",
		TracePath: filepath.Join(dir, "t.csv"), MaxEvents: defaultMaxEvents,
		Simulate: func(ctx context.Context, c sim.Config, o sim.Options) (sim.Result, error) {
			o.Trace.Record(&sim.TraceRecord{Class: "half-written"})
			return sim.Result{}, ctx.Err()
		}}
	err := runRun(opts)
	if exitStatus(err) != exitInterrupted || message(err) != "rlsim: interrupted; nothing was written" {
		t.Errorf("error = %v (status %d), want an interruption", err, exitStatus(err))
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 || out.Len() != 0 {
		t.Errorf("left files %v and output %q, want none", entries, out.String())
	}
}

// TestRunBoundaryBurstGolden runs a real scenario end to end through the command.
func TestRunBoundaryBurstGolden(t *testing.T) {
	code, out, errOut := execute(t, "run", "boundary-burst")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	checkGolden(t, "run_boundary_burst.golden", []byte(out))
}

// Output that is not a terminal keeps the full layout; --width fits the table,
// description and findings to that many columns, and --wide restores the full one.
func TestRunFitsTheWidth(t *testing.T) {
	if w := terminalWidth(&bytes.Buffer{}); w != 0 {
		t.Errorf("terminalWidth(a buffer) = %d, want 0", w)
	}
	_, full, _ := execute(t, "run", "nat-per-ip")
	_, wide, _ := execute(t, "run", "nat-per-ip", "--width", "80", "--wide")
	code, narrow, errOut := execute(t, "run", "nat-per-ip", "--width", "80")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if wide != full {
		t.Errorf("--wide differs from the full layout:\n%s\nfull:\n%s", wide, full)
	}
	widest := 0
	for _, line := range strings.Split(full, "\n") {
		widest = max(widest, utf8.RuneCountInString(line))
	}
	if widest <= 80 {
		t.Fatalf("the full layout is only %d columns: nothing to fit", widest)
	}
	for _, line := range strings.Split(narrow, "\n") {
		if n := utf8.RuneCountInString(line); n > 80 {
			t.Errorf("--width 80 printed a line of %d columns: %q", n, line)
		}
	}
}

// TestReproduceRunsTheSameAgain checks the command line a report prints: the
// seed the run used and every flag that changed it, for either kind of run, so
// that running it again passes the same budget.
func TestReproduceRunsTheSameAgain(t *testing.T) {
	seven := uint64(7)
	tests := []struct {
		name      string
		opts      runOptions
		load, arg string // the scenario run, and the argument that named it
		want      string
	}{
		{"defaults", runOptions{MaxEvents: defaultMaxEvents}, "demo", "demo", "rlsim run demo --seed 1"},
		{"every flag", runOptions{Seed: &seven, Duration: 2 * time.Second, Lanes: "gcra,fixed_window", MaxEvents: 10_000_000},
			"demo", "my file.yaml", "rlsim run 'my file.yaml' --seed 7 --duration 2s --lanes gcra,fixed_window --max-events 10000000"},
		{"sets, quoted for the shell", runOptions{Sets: []string{"limits[0].limit=20", "lanes=[gcra, token_bucket]"}, MaxEvents: defaultMaxEvents},
			"demo", "demo", "rlsim run demo --seed 1 --set 'limits[0].limit=20' --set 'lanes=[gcra, token_bucket]'"},
		{"a contention study with a lifted budget", runOptions{MaxEvents: 60_000_000}, "backoff-contention", "backoff-contention",
			"rlsim run backoff-contention --seed 1 --max-events 60000000"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list, err := run.LoadAll([]string{tc.load})
			if err != nil {
				t.Fatal(err)
			}
			if err := tc.opts.overrides().Apply(list); err != nil {
				t.Fatal(err)
			}
			o := report.Run{Scenario: list[0]}
			if list[0].Config != nil {
				o.Result = &sim.Result{Seed: list[0].Config.Seed}
			}
			if got := reproduce(&tc.opts, tc.arg, o); got != tc.want {
				t.Errorf("reproduce = %q, want %q", got, tc.want)
			}
		})
	}
}
