package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/internal/golden"
)

const (
	diffCurrent  = "../../report/diff/testdata/current.yaml"
	diffProposed = "../../report/diff/testdata/proposed.yaml"
)

// What rlsim diff makes of the hostile numbers TestEveryNumberFlagRefusesOrMeans
// gives it (its base invocation replays a log, where --seed is refused).
func init() {
	flagMeanings["diff --max-events=9223372036854775807"] = "a budget no run reaches"
	flagMeanings["diff --top=9223372036854775807"] = "every key listed"
	flagMeanings["diff --late=2562047h"] = "no line is too late to replay in its place"
}

// The exit statuses docs/diff.md and rlsim diff --help give: 0 when no
// --fail-on holds, 1 when one does (after the report), 2 for bad input.
// Tightening 10/s to 5/s newly refuses 3 keys, 1 of them at most the p99
// (report/diff's hand-derived case).
func TestDiffExitStatuses(t *testing.T) {
	base := []string{"diff", diffCurrent, diffProposed, "--scenario", diffCurrent}
	for _, c := range []struct {
		name   string
		args   []string
		code   int
		stdout string // a part of it
		stderr string // a part of it
	}{
		{"no --fail-on", nil, 0, "keys newly refused", ""},
		{"does not hold", []string{"--fail-on", "newly_refused_keys > 3", "--fail-on", "newly_refused_keys_below_p99 > 1"}, 0, "ok    newly_refused_keys > 3", ""},
		{"holds", []string{"--fail-on", "newly_refused_keys > 2", "--fail-on", "newly_refused_keys_below_p99 > 0"}, 1,
			"FAIL  newly_refused_keys_below_p99 > 0: 1 (lane fixed_window)", "rlsim diff: 2 of 2 --fail-on held"},
		{"a check's metric holds", []string{"--fail-on", "refused_rate > 0.5%"}, 1, "FAIL  refused_rate > 0.5%: 0.9% (lane fixed_window)", ""},
		{"bad expression", []string{"--fail-on", "newly_refused_keys >> 0"}, 2, "", "want METRIC OP VALUE"},
		{"unknown metric", []string{"--fail-on", "refused_keys > 0"}, 2, "", `unknown metric "refused_keys"`},
		{"no traffic", []string{"--scenario", ""}, 2, "", "--scenario or --log: give one"},
		{"no such lane", []string{"--lane", "gcra"}, 2, "", "the current side has no lane gcra"},
		{"over the budget", []string{"--max-events", "1000"}, 2, "", "--max-events"},
		{"bad format", []string{"-o", "yaml"}, 2, "", `--format: unknown "yaml"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, out, errOut := execute(t, append(append([]string{}, base...), c.args...)...)
			if code != c.code || !strings.Contains(out, c.stdout) || !strings.Contains(errOut, c.stderr) {
				t.Errorf("exit %d, want %d; stdout has %q: %v; stderr has %q: %v\nstdout:\n%s\nstderr:\n%s",
					code, c.code, c.stdout, strings.Contains(out, c.stdout), c.stderr, strings.Contains(errOut, c.stderr), out, errOut)
			}
		})
	}
	other := filepath.Join(t.TempDir(), "report.xml")
	os.WriteFile(other, []byte("<testsuites name=\"pytest\"/>"), 0o644)
	code, out, errOut := execute(t, append(append([]string{}, base...), "--junit", other)...)
	if b, _ := os.ReadFile(other); code != 2 || out != "" || string(b) != "<testsuites name=\"pytest\"/>" {
		t.Errorf("--junit over another tool's report: exit %d, stdout %q, file %q; want 2, nothing, the file as it was", code, out, b)
	}
	code, _, errOut = execute(t, "diff", diffCurrent, diffProposed, "--log", "x.log", "--fail-on", "refused_rate > 1%")
	if code != 2 || !strings.Contains(errOut, "a scenario's metric") {
		t.Errorf("a check's metric on a log: exit %d, %s; want 2, a scenario's metric", code, errOut)
	}
}

// docs/diff.md's worked example is what rlsim diff prints and writes: run
// in a copy of docs/examples/diff, its output block and its report.xml
// (go test ./cmd/rlsim -update rewrites both).
func TestDiffDocShowsTheRealOutput(t *testing.T) {
	path, err := filepath.Abs(filepath.Join("..", "..", "docs", "diff.md"))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	examples := docExamples(t, doc)
	if len(examples) != 1 {
		t.Fatalf("docs/diff.md has %d worked examples, want 1", len(examples))
	}
	dir := t.TempDir()
	src := filepath.Join("..", "..", "docs", "examples", "diff")
	for _, name := range []string{"old.conf", "new.conf", "sample.log"} {
		b, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	ex := examples[0]
	code, out, errOut := execute(t, ex.args...)
	if code != ex.code {
		t.Errorf("rlsim %q: exit %d, want %d: %s", ex.args, code, ex.code, errOut)
	}
	if !strings.Contains(doc, "`"+strings.TrimSpace(errOut)+"`") {
		t.Errorf("docs/diff.md does not quote what rlsim %q says on stderr: %q", ex.args, errOut)
	}
	report, err := os.ReadFile("report.xml")
	if err != nil {
		t.Fatal(err)
	}
	var parsed struct {
		XMLName xml.Name `xml:"testsuites"`
	}
	if err := xml.Unmarshal(report, &parsed); err != nil {
		t.Errorf("report.xml is not XML: %v", err)
	}
	from := strings.Index(doc, "```xml\n") + len("```xml\n")
	to := from + strings.Index(doc[from:], "```")
	if from < len("```xml\n") || to < from {
		t.Fatal("docs/diff.md shows no report.xml (a ```xml block)")
	}
	if golden.Updating() {
		doc = doc[:ex.from] + out + doc[ex.to:from] + string(report) + doc[to:]
		if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if out != ex.shown {
		t.Errorf("docs/diff.md's block under rlsim %q is not what it prints now (go test ./cmd/rlsim -update):\n%s", ex.args, out)
	}
	if doc[from:to] != string(report) {
		t.Errorf("docs/diff.md's report.xml is not what rlsim writes now (go test ./cmd/rlsim -update):\n%s", report)
	}
}

// rlsim diff given no flags gets the defaults docs/diff.md states.
func TestDiffGetsItsDefaults(t *testing.T) {
	var got *diffOptions
	cmd := NewCmdDiff(os.Stdout, func(o *diffOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"a.conf", "b.conf", "--log", "x.log"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if got.Format != "text" || got.Top != 10 || got.From != "auto" || got.MaxEvents != defaultMaxEvents || got.Seed != nil ||
		got.Read.LogFormat != "auto" || got.Read.TZ != "UTC" || got.Read.Late.String() != "5s" || got.Read.Strict || len(got.FailOn) != 0 {
		t.Errorf("diff with no flags: %+v", got)
	}
}
