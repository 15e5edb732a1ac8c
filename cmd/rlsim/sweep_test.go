package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSweepBadFlagsAreNamed(t *testing.T) {
	base := []string{"sweep", "noisy-neighbour", "--vary", "limits[0].limit=10,20"}
	tests := []struct {
		name  string
		args  []string
		wants []string
	}{
		{"no vary", []string{"sweep", "noisy-neighbour"}, []string{"--vary: give at least one"}},
		{"bad vary", []string{"sweep", "noisy-neighbour", "--vary", "limits[0].limit=1..5"}, []string{"--vary limits[0].limit=1..5: a range needs a step"}},
		{"bad value", []string{"sweep", "noisy-neighbour", "--vary", "limits[0].limit=10,ten"}, []string{`(--vary limits[0].limit=ten): limits[0].limit: want a whole number, got "ten"`}},
		{"where without find", append(base, "--where", "class quiet success >= 99%"), []string{"--where: needs --find"}},
		{"find of a path not varied", append(base, "--find", "min limits[0].burst"), []string{"--find min limits[0].burst: limits[0].burst is not varied"}},
		{"bad where", append(base, "--find", "min limits[0].limit", "--where", "class quite success >= 99%", "--where", "class quiet success >= 199%"),
			[]string{`--where class quite success >= 99%: unknown class "quite"`, `--where class quiet success >= 199%: "199%" is not a rate`}},
		{"bad shard", append(base, "--shard", "4/4"), []string{"--shard 4/4: want i/n with 0 <= i < n"}},
		{"shard and out", append(base, "--shard", "0/2", "--out", "x", "--format", "json"),
			[]string{"--out: a --shard prints a partial result only", "--format: a --shard prints"}},
		{"several at once", append(base, "--format", "xml", "--jobs", "-1", "--max-events", "0", "--width", "-1"),
			[]string{`--format: unknown value "xml"`, "--jobs: must be 0", "--max-events: must be positive", "--width: must be 0 or more, got -1"}},
		{"over budget", append(base, "--seeds", "10", "--max-events", "1000"), []string{"the sweep's 2 points × 10 seeds are estimated to need", "--max-events"}},
		{"bad seeds", append(base, "--seeds", "0"), []string{"--seeds: want 1 to 1000, got 0"}},
		// Numbers that once ran out of memory or swept nothing, exit 0: refused
		// before any work, naming the flag.
		{"absurd jobs", append(base, "--jobs", "100000000"), []string{"--jobs: must be 0 (one per core) to 1024, got 100000000"}},
		{"jobs past int64", append(base, "--jobs", "1e400"), []string{`invalid argument "1e400" for "--jobs" flag`}},
		{"shards past any sweep's points", append(base, "--shard", "0/1000000000"), []string{"--shard 0/1000000000: 1000000000 shards, more than the 10000 points a sweep may have"}},
		{"a range from NaN", []string{"sweep", "noisy-neighbour", "--vary", "limits[0].limit=NaN..10/1"}, []string{"--vary limits[0].limit=NaN..10/1: NaN..10/1 is not a range: want finite numbers"}},
		{"a range of NaN steps", []string{"sweep", "noisy-neighbour", "--vary", "limits[0].limit=1..10/NaN"}, []string{"is not a range: want finite numbers"}},
		{"a range of durations past int64", []string{"sweep", "noisy-neighbour", "--vary", "duration=-2562047h..2562047h/1ns"}, []string{"--vary duration=-2562047h..2562047h/1ns: 18446738400000000001 values, more than a sweep's 10000 points"}},
		{"seeds past the largest", append(base, "--seed", "18446744073709551615", "--seeds", "2"), []string{"--seed, --seeds: seeds 18446744073709551615 to 18446744073709551615 + 1 pass the largest seed"}},
		{"a where of NaN", append(base, "--find", "min limits[0].limit", "--where", "class quiet success >= NaN%"), []string{`--where class quiet success >= NaN%: "NaN%" is not a rate`}},
		{"a where of Inf", append(base, "--find", "min limits[0].limit", "--where", "peak_ratio <= Inf"), []string{`--where peak_ratio <= Inf: "Inf" is not a ratio`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := execute(t, tc.args...)
			if code != exitBadInput || out != "" {
				t.Errorf("exit %d, stdout %q; want 2 and nothing", code, out)
			}
			for _, w := range tc.wants {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q, want %q", errOut, w)
				}
			}
			if strings.Contains(errOut, "goroutine ") {
				t.Errorf("a stack trace: %s", errOut)
			}
		})
	}
}

// sweepArgs is a small two-dimensional sweep with an objective.
var sweepArgs = []string{"noisy-neighbour", "--vary", "limits[0].limit=20,40,60", "--vary", "limits[0].burst=20,60", "--seeds", "3", "--lanes", "fixed_window,token_bucket"}

var objectiveArgs = []string{"--find", "min limits[0].limit", "--where", "class quiet success >= 40%"}

// TestSweepWidth: --width drops columns, --wide (or --width 0) keeps them all
// whatever the width.
func TestSweepWidth(t *testing.T) {
	args := append([]string{"sweep"}, sweepArgs...)
	_, full, _ := execute(t, args...)
	for _, tc := range []struct {
		flags []string
		full  bool
	}{
		{[]string{"--width", "0"}, true},
		{[]string{"--width", "40", "--wide"}, true},
		{[]string{"--width", "100"}, false},
	} {
		code, out, errOut := execute(t, append(args, tc.flags...)...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", tc.flags, code, errOut)
		}
		if (out == full) != tc.full {
			t.Errorf("%q: the full layout is %v, want %v:\n%s", tc.flags, out == full, tc.full, out)
		}
		if !strings.Contains(out, "retry amp") != !tc.full {
			t.Errorf("%q: the column retry amp, dropped first, is there: %v", tc.flags, strings.Contains(out, "retry amp"))
		}
	}
}

// TestSweepReproduceRunsTheSameAgain runs the command a sweep's table ends
// with and wants the same output, byte for byte; the page shows the same line.
func TestSweepReproduceRunsTheSameAgain(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		append(append(append([]string{"sweep"}, sweepArgs...), objectiveArgs...), "--set", "duration=10s", "--out", filepath.Join(dir, "r")),
		{"run", "noisy-neighbour", "--seeds", "2", "--seed", "7", "--lanes", "gcra"},
	} {
		code, out, errOut := execute(t, args...)
		if code != 0 {
			t.Fatalf("%q: exit %d: %s", args, code, errOut)
		}
		m := regexp.MustCompile(`(?m)^reproduce: rlsim (.*)$`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("%q: no reproduce line:\n%s", args, out)
		}
		again := shellWords(t, m[1])
		code, out2, errOut := execute(t, again...)
		if code != 0 || out2 != out {
			t.Errorf("%q: exit %d %s; its output differs:\n%s\n---\n%s", again, code, errOut, out2, out)
		}
		if args[0] == "sweep" {
			page, err := os.ReadFile(filepath.Join(dir, "r", "index.html"))
			if err != nil || !strings.Contains(string(page), "<code>"+html.EscapeString("rlsim "+m[1])+"</code>") {
				t.Errorf("index.html lacks the command %q (%v)", m[1], err)
			}
		}
	}
}

// shellWords splits a command line that shellQuote wrote.
func shellWords(t *testing.T, line string) []string {
	var words []string
	for _, m := range regexp.MustCompile(`'((?:[^']|'\\'')*)'|(\S+)`).FindAllStringSubmatch(line, -1) {
		if m[2] != "" {
			words = append(words, m[2])
			continue
		}
		words = append(words, strings.ReplaceAll(m[1], `'\''`, "'"))
	}
	return words
}

func TestSweepMergeGivesTheWholeSweepsOutput(t *testing.T) {
	dir := t.TempDir()
	var parts []string
	for i := range 4 {
		code, out, errOut := execute(t, append(append([]string{"sweep"}, sweepArgs...), "--shard", []string{"0/4", "1/4", "2/4", "3/4"}[i])...)
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
		p := filepath.Join(dir, "part-"+string(rune('0'+i))+".json")
		os.WriteFile(p, []byte(out), 0o644)
		parts = append(parts, p)
	}
	for _, format := range []string{"table", "json", "csv"} {
		whole := append(append(append([]string{"sweep"}, sweepArgs...), objectiveArgs...), "--format", format, "--jobs", "2", "--out", filepath.Join(dir, "whole-"+format))
		merge := append(append(append([]string{"sweep", "merge"}, parts...), objectiveArgs...), "--format", format, "--out", filepath.Join(dir, "merged-"+format))
		c1, o1, e1 := execute(t, whole...)
		c2, o2, e2 := execute(t, merge...)
		if c1 != 0 || c2 != 0 {
			t.Fatalf("%s: exit %d, %d: %s %s", format, c1, c2, e1, e2)
		}
		if o1 != o2 {
			t.Errorf("%s: the merged output differs from the whole sweep's:\n%s\n---\n%s", format, o2, o1)
		}
		if format == "table" && !strings.Contains(o1, "recommended: min limits[0].limit") {
			t.Errorf("the table has no recommendation:\n%s", o1)
		}
		for _, f := range []string{"index.html", "sweep.json", "sweep.csv", "sweep-heatmap.png"} {
			a, err1 := os.ReadFile(filepath.Join(dir, "whole-"+format, f))
			b, err2 := os.ReadFile(filepath.Join(dir, "merged-"+format, f))
			if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
				t.Errorf("%s: %s of the merge differs from the whole sweep's (%v, %v)", format, f, err1, err2)
			}
		}
	}
	code, o1, _ := execute(t, append(append(append([]string{"sweep"}, sweepArgs...), objectiveArgs...), "--width", "80")...)
	code2, o2, _ := execute(t, append(append(append([]string{"sweep", "merge"}, parts...), objectiveArgs...), "--width", "80")...)
	if code != 0 || code2 != 0 || o1 != o2 {
		t.Errorf("--width 80: the merged table differs from the whole sweep's (exit %d, %d):\n%s\n---\n%s", code, code2, o2, o1)
	}
	code, _, errOut := execute(t, append([]string{"sweep", "merge"}, parts[:3]...)...)
	if code != exitBadInput || !strings.Contains(errOut, "shards [3/4] are missing") {
		t.Errorf("merging 3 of 4 shards: exit %d, %q", code, errOut)
	}
}

// TestSweepMergeRefusesDamagedPartials: a partial cut short, with a figure
// edited, of an older format or two joined is refused with exit 2 naming the
// file, nothing printed and no report written; never a panic, never a table.
func TestSweepMergeRefusesDamagedPartials(t *testing.T) {
	dir := t.TempDir()
	var parts []string
	for i := range 2 {
		code, out, errOut := execute(t, "sweep", "noisy-neighbour", "--vary", "limits[0].limit=20,40", "--lanes", "gcra", "--shard", fmt.Sprintf("%d/2", i))
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
		parts = append(parts, filepath.Join(dir, fmt.Sprintf("part-%d.json", i)))
		if err := os.WriteFile(parts[i], []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	good, _ := os.ReadFile(parts[0])
	other, _ := os.ReadFile(parts[1])
	figure := regexp.MustCompile(`"totals":\[(\d)`)
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"cut short", good[:len(good)/3], "not a whole partial result of rlsim sweep --shard (empty or truncated)"},
		{"a figure edited", figure.ReplaceAll(good, []byte(`"totals":[9$1`)), "the content does not match its checksum"},
		{"version 1", bytes.Replace(good, []byte(`"rlsim_sweep_partial":2`), []byte(`"rlsim_sweep_partial":1`), 1), "partial result version 1; this rlsim reads version 2: run the shards again"},
		{"two joined", append(append([]byte(nil), good...), other...), "more after the partial result"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bad := filepath.Join(t.TempDir(), "part-0.json")
			if err := os.WriteFile(bad, tc.data, 0o644); err != nil {
				t.Fatal(err)
			}
			report := filepath.Join(t.TempDir(), "r")
			code, out, errOut := execute(t, "sweep", "merge", bad, parts[1], "--out", report)
			if code != exitBadInput || out != "" || !strings.Contains(errOut, bad+": "+tc.want) || strings.Contains(errOut, "goroutine ") {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, nothing, %q", code, out, errOut, bad+": "+tc.want)
			}
			if _, err := os.Stat(report); !os.IsNotExist(err) {
				t.Errorf("a refused merge wrote %s", report)
			}
		})
	}
}

func TestRunSeeds(t *testing.T) {
	for _, format := range []string{"table", "json", "csv"} {
		_, plain, _ := execute(t, "run", "noisy-neighbour", "--format", format)
		_, one, _ := execute(t, "run", "noisy-neighbour", "--format", format, "--seeds", "1")
		if plain != one {
			t.Errorf("%s: --seeds 1 changed the output", format)
		}
	}
	code, out, errOut := execute(t, "run", "noisy-neighbour", "--seeds", "4", "--lanes", "fixed_window,sliding_log")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"noisy-neighbour over 4 seeds (1 to 4)", "± ", "lies within the spread over 4 seeds", "quiet"} {
		if !strings.Contains(out, want) {
			t.Errorf("rlsim run --seeds 4 lacks %q:\n%s", want, out)
		}
	}
	code, _, errOut = execute(t, "run", "noisy-neighbour", "--seeds", "4", "--trace", "t.csv")
	if code != exitBadInput || !strings.Contains(errOut, "--trace: traces one run") {
		t.Errorf("--seeds with --trace: exit %d, %q", code, errOut)
	}
}

func TestSweepInterruptedWritesNothing(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "report")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out bytes.Buffer
	opts := &sweepOptions{Out: &out, Ctx: ctx, Arg: "noisy-neighbour", Varies: []string{"limits[0].limit=20,40"},
		Seeds: 2, Format: "table", OutDir: dir, MaxEvents: defaultMaxEvents}
	err := sweepRun(opts)
	if !errors.Is(err, context.Canceled) || exitStatus(err) != exitInterrupted {
		t.Errorf("error = %v, want an interruption", err)
	}
	if out.Len() != 0 {
		t.Errorf("an interrupted sweep printed %q", out.String())
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("an interrupted sweep left %s: %v", dir, err)
	}
}

func TestSweepProgress(t *testing.T) {
	var progress, out bytes.Buffer
	opts := &sweepOptions{Out: &out, Progress: &progress, Arg: "noisy-neighbour", Varies: []string{"limits[0].limit=20,40"},
		Seeds: 2, Format: "table", MaxEvents: defaultMaxEvents, Jobs: 1}
	if err := sweepRun(opts); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sweep: 1 of 4 runs", "sweep: 4 of 4 runs"} {
		if !strings.Contains(progress.String(), want) {
			t.Errorf("progress %q lacks %q", progress.String(), want)
		}
	}
	if !strings.HasSuffix(progress.String(), "\r\x1b[K") {
		t.Errorf("the progress line is not cleared at the end: %q", progress.String())
	}
	if strings.Contains(out.String(), "\x1b") {
		t.Errorf("progress leaked into the output")
	}
}

func TestRunSeedsGatesOnTheMeans(t *testing.T) {
	_, src, _ := execute(t, "scenarios", "show", "nat-per-user")
	file := filepath.Join(t.TempDir(), "nat.yaml")
	os.WriteFile(file, []byte(src+"checks:\n  - {class: users, metric: success_rate, op: \">=\", value: 99.5%}\n"), 0o644)
	args := []string{"run", file, "--set", "limits[0].limit=2", "--lanes", "sliding_log", "--format", "json", "--seed", "3"}
	// Seed 3 alone misses 99.5% (98.98%); the mean over seeds 3 to 7 meets it
	// (99.6%): the gate reads the mean.
	for _, tc := range []struct {
		seeds string
		code  int
	}{{"1", 1}, {"5", 0}} {
		code, out, errOut := execute(t, append(args, "--seeds", tc.seeds)...)
		if code != tc.code {
			t.Errorf("--seeds %s: exit %d, want %d: %s", tc.seeds, code, tc.code, errOut)
		}
		if tc.seeds == "5" && !strings.Contains(out, `"metric": "success_rate"`) {
			t.Errorf("--seeds 5: the JSON lacks the check:\n%s", out)
		}
	}
	code, _, errOut := execute(t, append(args, "--seeds", "5", "--set", "checks[0].value=99.9%")...)
	if code != 1 || !strings.Contains(errOut, "1 of 1 checks failed on the means over 5 seeds") {
		t.Errorf("a check the mean misses: exit %d, %q", code, errOut)
	}
}

// TestSweepGolden keeps a small sweep's table, JSON and CSV, and a run over
// seeds, under testdata/ (go test ./cmd/rlsim -update rewrites them).
func TestSweepGolden(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"sweep_table.golden", append(append([]string{"sweep"}, sweepArgs...), objectiveArgs...)},
		{"sweep_table_80.golden", append([]string{"sweep", "--width", "80"}, append(sweepArgs[:3:3], append(sweepArgs[5:], objectiveArgs...)...)...)},
		{"sweep_json.golden", []string{"sweep", "noisy-neighbour", "--vary", "limits[0].limit=20,60", "--seeds", "2", "--lanes", "token_bucket",
			"--find", "max limits[0].limit", "--where", "class noisy admitted_rate <= 30/s", "--format", "json"}},
		{"sweep_csv.golden", append([]string{"sweep", "--format", "csv"}, sweepArgs...)},
		{"run_seeds.golden", []string{"run", "noisy-neighbour", "--seeds", "5"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := execute(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			checkGolden(t, tc.name, []byte(out))
			if strings.HasSuffix(tc.name, "_80.golden") {
				for _, line := range strings.Split(out, "\n") {
					if n := utf8.RuneCountInString(line); n > 80 && !strings.HasPrefix(line, "reproduce: ") {
						t.Errorf("a line of %d columns at --width 80: %q", n, line)
					}
				}
			}
		})
	}
}

// A --where may name any lane the scenario runs, its own list or the default eight.
func TestSweepWhereNamesADefaultLane(t *testing.T) {
	code, out, errOut := execute(t, "sweep", "noisy-neighbour", "--vary", "limits[0].limit=20,40",
		"--find", "min limits[0].limit", "--where", "lane gcra class quiet success >= 1%")
	if code != 0 || !strings.Contains(out, "  GCRA: limits[0].limit=20") {
		t.Errorf("exit %d: %s\n%s", code, errOut, out)
	}
}

// A merge of a file's sweep gives exactly the whole sweep's output, its
// reproduce line too: the partials carry the scenario as the command named it.
// Shards that name the file by different paths still merge (the first names it).
func TestSweepMergeOfAFileNamesItsScenario(t *testing.T) {
	file := filepath.Join("..", "..", "docs", "examples", "per-api-key.yaml")
	abs, err := filepath.Abs(file)
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"--vary", "limits[0].limit=4,6,8", "--seeds", "1"}
	dir := t.TempDir()
	var parts []string
	for i, f := range []string{file, abs} {
		code, out, errOut := execute(t, append([]string{"sweep", f, "--shard", fmt.Sprintf("%d/2", i)}, args...)...)
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, errOut)
		}
		part := filepath.Join(dir, fmt.Sprintf("part-%d.json", i))
		if err := os.WriteFile(part, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		parts = append(parts, part)
	}
	_, whole, _ := execute(t, append([]string{"sweep", file}, args...)...)
	code, merged, errOut := execute(t, append([]string{"sweep", "merge"}, parts...)...)
	if code != 0 {
		t.Fatalf("merge: exit %d: %s", code, errOut)
	}
	if !strings.Contains(whole, "reproduce: rlsim sweep "+file+" --vary") || merged != whole {
		t.Errorf("the merge differs from the whole sweep:\n%s\n---\n%s", merged, whole)
	}
}
