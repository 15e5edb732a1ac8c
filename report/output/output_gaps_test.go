package output

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/report"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/run/sweep"
	"github.com/rlsim/rlsim/sim"
)

func checks(pass ...bool) []run.CheckResult {
	var out []run.CheckResult
	for _, p := range pass {
		out = append(out, run.CheckResult{Pass: p})
	}
	return out
}

// ChecksFailed is nil when every check of every run passed (or there are
// none), and otherwise counts the failed among all the runs' checks.
func TestChecksFailedCountsOverRuns(t *testing.T) {
	for _, tc := range []struct {
		name string
		runs []report.Run
		want string // "": nil
	}{
		{"no runs", nil, ""},
		{"no checks", []report.Run{{}, {}}, ""},
		{"all pass", []report.Run{{Checks: checks(true, true)}, {Checks: checks(true)}}, ""},
		{"one fails", []report.Run{{Checks: checks(true, true)}, {Checks: checks(false)}}, "rlsim: 1 of 3 checks failed"},
		{"all fail", []report.Run{{Checks: checks(false, false)}}, "rlsim: 2 of 2 checks failed"},
	} {
		err := ChecksFailed(tc.runs)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || err.Error() != tc.want) {
			t.Errorf("%s: ChecksFailed = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// Clear wipes a line once anything was drawn, even only 0%, and writes
// nothing when nothing was; Update redraws only when the percentage moved,
// and never for a run of no length.
func TestProgressLineClearAndRedraw(t *testing.T) {
	clock := func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }
	end := 10 * time.Second
	const erase = "\r\x1b[K"

	var b bytes.Buffer
	p := NewProgressLine(&b, "w", clock)
	p.Clear()
	p.Update(sim.Progress{Now: time.Second, End: 0})
	if b.Len() != 0 {
		t.Errorf("Clear before any line and Update of a run of no length wrote %q, want nothing", b.String())
	}

	p.Update(sim.Progress{Now: 0, End: end})
	drawn := b.String()
	p.Clear()
	if !strings.HasPrefix(drawn, erase+"w:   0%") || b.String() != drawn+erase {
		t.Errorf("Update at 0%% then Clear wrote %q, want the 0%% line then %q", b.String(), erase)
	}

	b.Reset()
	p = NewProgressLine(&b, "w", clock)
	p.Update(sim.Progress{Now: 5 * time.Second, End: end})
	p.Update(sim.Progress{Now: 5*time.Second + time.Millisecond, End: end}) // still 50%
	if n := strings.Count(b.String(), erase); n != 1 {
		t.Errorf("two updates at 50%% drew %d lines, want 1: %q", n, b.String())
	}
	p.Update(sim.Progress{Now: 6 * time.Second, End: end})
	if n := strings.Count(b.String(), erase); n != 2 || !strings.Contains(b.String(), "w:  60%  t=6s of 10s") {
		t.Errorf("an update at 60%% after 50%% drew %q", b.String())
	}
}

// perSecond writes the plain number under 10,000, thousands then, millions
// with one decimal from a million and none from ten million.
func TestPerSecondSteps(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{9_999, "9999"}, {10_000, "10 k"}, {999_000, "999 k"}, {1_000_000, "1.0 M"}, {2_500_000, "2.5 M"}, {10_000_000, "10 M"},
	} {
		if got := perSecond(tc.n, time.Second); got != tc.want {
			t.Errorf("perSecond(%d, 1s) = %q, want %q", tc.n, got, tc.want)
		}
	}
	if got := perSecond(30_000, 2*time.Second); got != "15 k" {
		t.Errorf("perSecond(30000, 2s) = %q, want 15 k", got)
	}
}

// --seeds takes 1 to MaxSeeds inclusive; a sweep without --where needs no --find.
func TestCheckRunAndSweepBounds(t *testing.T) {
	if err := CheckRun("json", "", sweep.MaxSeeds); err != nil {
		t.Errorf("CheckRun with --seeds %d = %v, want nil", sweep.MaxSeeds, err)
	}
	if err := CheckRun("json", "t.jsonl", 1); err != nil {
		t.Errorf("a trace of one seed: %v", err)
	}
	if err := CheckSweep("csv", "", nil); err != nil {
		t.Errorf("CheckSweep without --find or --where = %v, want nil", err)
	}
	if err := CheckSweep("table", "", []string{"success >= 99%"}); err == nil || strings.Contains(err.Error(), "--format") {
		t.Errorf("a --where without --find: %v, want the --where error alone", err)
	}
}

// ProgressLines gives each scenario its own line, named.
func TestProgressLinesOnePerScenario(t *testing.T) {
	var w bytes.Buffer
	clock := func() time.Time { return time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC) }
	lines := ProgressLines(&w, clock)
	up1, clear1 := lines("first")
	up1(sim.Progress{Now: 50 * time.Second, End: 100 * time.Second})
	clear1()
	up2, clear2 := lines("second")
	clear2() // nothing drawn yet for second
	up2(sim.Progress{Now: 0, End: 100 * time.Second})
	want := "\r\x1b[Kfirst:  50%  t=50s of 1m40s\r\x1b[K\r\x1b[Ksecond:   0%  t=0 of 1m40s"
	if w.String() != want {
		t.Errorf("two scenarios drew %q, want %q", w.String(), want)
	}
}
