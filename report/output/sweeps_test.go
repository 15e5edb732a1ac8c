package output

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
	"github.com/rlsim/rlsim/run/sweep"
	"github.com/rlsim/rlsim/sim"
)

// testSweep is a small sweep of two points over two seeds.
func testSweep(shard sweep.Shard) sweep.Sweep {
	return sweep.Sweep{Arg: "noisy-neighbour", Seeds: 2, Shard: shard,
		Varies:    []sweep.Vary{{Path: "limits[0].limit", Values: []string{"20", "40"}}},
		Overrides: run.Overrides{Lanes: "fixed_window,token_bucket", MaxEvents: run.DefaultMaxEvents}}
}

// TestSweepShardsMergeToTheWhole: the shards' partials, merged, write what
// the whole sweep writes, reproduce line and objective included.
func TestSweepShardsMergeToTheWhole(t *testing.T) {
	ctx := context.Background()
	o := SweepOptions{Format: "table", Find: "min limits[0].limit", Where: []string{"class quiet success >= 40%"}}
	var whole, progress bytes.Buffer
	wo := o
	wo.Progress = &progress
	if err := Sweep(ctx, &whole, testSweep(sweep.Shard{}), wo); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(whole.String(), "reproduce: rlsim sweep noisy-neighbour --vary 'limits[0].limit=20,40' --seeds 2 --seed 1 --lanes fixed_window,token_bucket --find 'min limits[0].limit'") {
		t.Errorf("the whole sweep's output lacks its reproduce line:\n%s", whole.String())
	}
	for _, want := range []string{"sweep: 1 of 4 runs", "sweep: 4 of 4 runs"} {
		if !strings.Contains(progress.String(), want) {
			t.Errorf("progress %q lacks %q", progress.String(), want)
		}
	}
	if !strings.HasSuffix(progress.String(), "\r\x1b[K") {
		t.Errorf("the progress line is not cleared at the end: %q", progress.String())
	}
	var files []string
	for i := range 2 {
		var part bytes.Buffer
		// A shard writes its partial whatever the output flags say.
		if err := Sweep(ctx, &part, testSweep(sweep.Shard{Index: i, Count: 2}), SweepOptions{Format: "table"}); err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(part.Bytes(), []byte("{")) {
			t.Fatalf("shard %d wrote %q, want a partial result (JSON)", i, part.String())
		}
		files = append(files, filepath.Join(t.TempDir(), "part.json"))
		if err := os.WriteFile(files[i], part.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var merged bytes.Buffer
	if err := Merge(&merged, files, o); err != nil {
		t.Fatal(err)
	}
	if merged.String() != whole.String() {
		t.Errorf("merged:\n%s\nwhole:\n%s", merged.String(), whole.String())
	}
}

// TestSweepRefusesBeforeRunning: a bad objective or report folder is refused,
// as the input's fault, with nothing written.
func TestSweepRefusesBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "mine.txt"), []byte("not rlsim's"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, o := range []SweepOptions{
		{Format: "table", Find: "min limits[0].burst"},
		{Format: "table", Dir: dir},
	} {
		var out, progress bytes.Buffer
		o.Progress = &progress
		err := Sweep(context.Background(), &out, testSweep(sweep.Shard{}), o)
		var ie *run.InputError
		if !errors.As(err, &ie) || out.Len() != 0 || progress.Len() != 0 {
			t.Errorf("Sweep(%+v) = %v, wrote %q and progress %q; want an *run.InputError before any run", o, err, out.String(), progress.String())
		}
	}
}

func TestSeeds(t *testing.T) {
	ov := run.Overrides{Lanes: "fixed_window", MaxEvents: run.DefaultMaxEvents}
	var out bytes.Buffer
	if err := Seeds(context.Background(), &out, []string{"noisy-neighbour"}, 2, ov, SweepOptions{Format: "table"}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"noisy-neighbour over 2 seeds", "reproduce: rlsim run noisy-neighbour --seed 1 --lanes fixed_window --seeds 2"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("Seeds output lacks %q:\n%s", want, out.String())
		}
	}
	out.Reset()
	err := Seeds(context.Background(), &out, []string{"noisy-neighbour", "no-such-scenario"}, 2, ov, SweepOptions{Format: "table"})
	var ie *run.InputError
	if !errors.As(err, &ie) || out.Len() != 0 {
		t.Errorf("Seeds of an unknown scenario = %v, wrote %q; want an *run.InputError and nothing", err, out.String())
	}
}

func TestCheckRun(t *testing.T) {
	tests := []struct {
		format, trace string
		seeds         int
		want          string // "" for no error
	}{
		{"table", "t.csv", 1, ""},
		{"csv", "", 10, ""},
		{"table", "", 0, "--seeds: want 1 to 1000, got 0"},
		{"table", "", sweep.MaxSeeds + 1, "--seeds: want 1 to 1000, got 1001"},
		{"table", "t.csv", 2, "--trace: traces one run; --seeds 2 makes 2 of each scenario"},
		{"xml", "", 1, `--format: unknown value "xml" (want text, json, csv)`},
		{"xml", "", 3, `--format: unknown value "xml" (want text, json, csv)`},
	}
	for _, tc := range tests {
		err := CheckRun(tc.format, tc.trace, tc.seeds)
		var ie *run.InputError
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want || !errors.As(err, &ie)) {
			t.Errorf("CheckRun(%q, %q, %d) = %v, want %q", tc.format, tc.trace, tc.seeds, err, tc.want)
		}
	}
}

func TestCheckSweep(t *testing.T) {
	if err := CheckSweep("json", "min x", []string{"success >= 99%"}); err != nil {
		t.Errorf("CheckSweep of good flags = %v", err)
	}
	err := CheckSweep("xml", "", []string{"success >= 99%"})
	want := "--format: unknown value \"xml\" (want text, json, csv)\n--where: needs --find 'min PATH' (or max) to say what to pick"
	var ie *run.InputError
	if err == nil || err.Error() != want || !errors.As(err, &ie) {
		t.Errorf("CheckSweep = %v, want both, in order:\n%s", err, want)
	}
}

func TestProgressLinesWithoutAWriter(t *testing.T) {
	if ProgressLines(nil, nil) != nil {
		t.Errorf("ProgressLines(nil) is not nil: a run without a terminal would draw")
	}
	var w bytes.Buffer
	clock := func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }
	update, clear := ProgressLines(&w, clock)("demo")
	update(sim.Progress{Now: 50 * time.Second, End: 100 * time.Second})
	clear()
	if !strings.Contains(w.String(), "demo:  50%") || !strings.HasSuffix(w.String(), "\r\x1b[K") {
		t.Errorf("ProgressLines drew %q", w.String())
	}
}
