package report

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/sim"
)

// The contention table: its first line states the study's settings, each part
// says whether it shows an interval (two runs or more), and a cell the sweep
// lacks is "-".
func TestWriteContentionText(t *testing.T) {
	rows := []contention.Row{
		{Clients: 10, Jitter: sim.JitterFull, Runs: 2, Calls: 30, CallsLow: 28, CallsHigh: 32, Completion: time.Second, CompletionLow: 900 * time.Millisecond, CompletionHigh: 1100 * time.Millisecond},
		{Clients: 10, Jitter: sim.JitterNone, Runs: 2, Calls: 60, CallsLow: 50, CallsHigh: 70, Completion: 2 * time.Second, CompletionLow: 2 * time.Second, CompletionHigh: 2 * time.Second},
		{Clients: 20, Jitter: sim.JitterFull, Runs: 2, Calls: 80, CallsLow: 80, CallsHigh: 80, Completion: 3 * time.Second, CompletionLow: 3 * time.Second, CompletionHigh: 3 * time.Second},
	}
	for _, runs := range []int{0, 1, 2, 3} {
		var b bytes.Buffer
		cfg := &contention.Config{Seed: 9, Base: 5 * time.Millisecond, Cap: 2 * time.Second, Runs: runs, Schedule: sim.ScheduleBaseFirst}
		writeContention(&b, cfg, contention.Result{Rows: rows}, 0)
		out := b.String()
		first, _, _ := strings.Cut(out, "\n")
		if want := fmt.Sprintf("optimistic concurrency: backoff base 5ms, cap 2s; mean of %d run(s), seed 9", max(runs, 1)); first != want {
			t.Errorf("runs %d: first line %q, want %q", runs, first, want)
		}
		interval := strings.Count(out, "(mean ± half its 95% interval over the ")
		if want := map[bool]int{true: 2, false: 0}[runs >= 2]; interval != want {
			t.Errorf("runs %d: %d parts say they show an interval, want %d:\n%s", runs, interval, want, out)
		}
		if runs >= 2 && !strings.Contains(out, fmt.Sprintf("over the %d runs)", runs)) {
			t.Errorf("runs %d: the interval does not name the runs:\n%s", runs, out)
		}
		lines := strings.Split(out, "\n")
		var twenty []string
		for _, l := range lines {
			if strings.HasPrefix(l, "20 ") {
				twenty = append(twenty, strings.Fields(l)...)
			}
		}
		if len(twenty) < 2 || twenty[len(twenty)-1] != "-" {
			t.Errorf("runs %d: the row of 20 clients has no cell for no jitter: %q\n%s", runs, twenty, out)
		}
	}
	var b bytes.Buffer
	writeContention(&b, &contention.Config{Seed: 1, Base: time.Millisecond, Cap: time.Second, Schedule: sim.ScheduleBrooker}, contention.Result{Rows: rows}, 0)
	if first, _, _ := strings.Cut(b.String(), "\n"); !strings.Contains(first, "cap 1s, schedule "+sim.ScheduleBrooker.String()+"; mean of 1 run(s)") {
		t.Errorf("a schedule other than the default is named: %q", first)
	}
}
