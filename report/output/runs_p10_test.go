package output

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/sim"
)

// Runs that succeed write, in order: the format's rendering of the runs to
// out (recomputed from the runs returned), the trace inside the report
// folder (a relative --trace), the report's own files; each scenario's
// progress is asked for by its name and cleared, and Reproduce is asked for
// each run by its index. With --trace -, out holds the trace alone.
func TestRunsWriteEverythingAsked(t *testing.T) {
	ov := run.Overrides{Lanes: "fixed_window", MaxEvents: run.DefaultMaxEvents}
	list, err := ov.Load([]string{"noisy-neighbour", "noisy-neighbour"})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "report")
	var asked, cleared []string
	var reproduced []int
	o := RunOptions{Format: "csv", Width: 80, Trace: "trace.csv", Dir: dir, Run: run.Options{MaxEvents: run.DefaultMaxEvents},
		Progress: func(name string) (func(sim.Progress), func()) {
			asked = append(asked, name)
			return func(sim.Progress) {}, func() { cleared = append(cleared, name) }
		},
		Reproduce: func(i int, r report.Run) string {
			reproduced = append(reproduced, i)
			return "rlsim run " + r.Scenario.Name
		}}
	var out bytes.Buffer
	runs, err := Runs(context.Background(), &out, list, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 2 || runs[0].Result == nil || runs[0].Timeline == nil {
		t.Fatalf("runs %+v, want two results with their timelines (a report folder draws them)", runs)
	}
	f, _ := Named(ForRuns, "csv")
	var want bytes.Buffer
	if err := f.Runs(&want, runs, 80); err != nil {
		t.Fatal(err)
	}
	if out.String() != want.String() {
		t.Errorf("out:\n%s\nwant the csv of the runs:\n%s", out.String(), want.String())
	}
	if name := list[0].Name; !slices.Equal(asked, []string{name, name}) || !slices.Equal(cleared, asked) {
		t.Errorf("progress asked for %v, cleared %v; want %s twice, each cleared", asked, cleared, name)
	}
	if !slices.Equal(reproduced, []int{0, 1}) {
		t.Errorf("Reproduce asked for %v, want 0 and 1", reproduced)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, e := range entries {
		files = append(files, e.Name())
	}
	for _, name := range []string{"trace.csv", "index.html", "results.json", report.MarkerName} {
		if !slices.Contains(files, name) {
			t.Errorf("report folder holds %v, want %s among them", files, name)
		}
	}
	trace, _ := os.ReadFile(filepath.Join(dir, "trace.csv"))
	if !bytes.HasPrefix(trace, []byte("scenario,at_ns,")) || bytes.Count(trace, []byte("\n")) < 2 {
		t.Errorf("trace.csv starts %q, want a header and records", trace[:min(len(trace), 40)])
	}
	index, _ := os.ReadFile(filepath.Join(dir, "index.html"))
	if !bytes.Contains(index, []byte("rlsim run "+list[0].Name)) {
		t.Error("index.html does not carry the Reproduce command")
	}

	// --trace -: the trace alone on out, the results in the folder.
	o2 := RunOptions{Format: "csv", Trace: run.StdoutTrace, Dir: filepath.Join(t.TempDir(), "r2"), Run: run.Options{MaxEvents: run.DefaultMaxEvents},
		Reproduce: func(int, report.Run) string { return "" }}
	out.Reset()
	if _, err := Runs(context.Background(), &out, list[:1], o2); err != nil {
		t.Fatal(err)
	}
	csvHead, _, _ := strings.Cut(want.String(), "\n")
	for i, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if !strings.HasPrefix(line, `{"scenario":"`+list[0].Name+`","at_ns":`) || line == csvHead {
			t.Fatalf("--trace -: line %d of out is %q, want the trace's JSON lines alone", i+1, line)
		}
	}
}

// CheckPaths and Run refuse, all at once, a --trace - without --out and an
// argument that does not load, before anything runs.
func TestRunRefusesAtOnce(t *testing.T) {
	err := CheckPaths("", run.StdoutTrace)
	if err == nil || !run.IsBadInput(err) || !strings.Contains(err.Error(), "--trace -: the trace then takes standard output, so the results need --out DIR") {
		t.Errorf("CheckPaths(\"\", -) = %v", err)
	}
	if err := CheckPaths(filepath.Join(t.TempDir(), "r"), run.StdoutTrace); err != nil {
		t.Errorf("CheckPaths(dir, -) = %v, want nil", err)
	}
	if err := CheckPaths(t.TempDir(), "index.html"); err == nil || !strings.Contains(err.Error(), "writes its own index.html") {
		t.Errorf("CheckPaths(dir, index.html) = %v, want the report's own file refused", err)
	}
	var out bytes.Buffer
	err = Run(context.Background(), &out, []string{"no-such-scenario-p10"}, run.Overrides{MaxEvents: run.DefaultMaxEvents},
		RunOptions{Format: "table", Trace: run.StdoutTrace})
	if err == nil || !strings.Contains(err.Error(), "no-such-scenario-p10") || !strings.Contains(err.Error(), "--trace -: the trace then takes") {
		t.Errorf("Run(a missing scenario, --trace - without --out) = %v, want both told", err)
	}
	if out.Len() != 0 {
		t.Errorf("a refused Run wrote %q", out.String())
	}
}
