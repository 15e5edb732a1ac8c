package report

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// contentionCell is a row of 10 clients with the given calls interval.
func contentionCell(j sim.JitterKind, runs int, low, mean, high float64) sim.ContentionRow {
	return sim.ContentionRow{Clients: 10, Jitter: j, Runs: runs, Calls: mean, CallsLow: low, CallsHigh: high}
}

// A winner of the contention study is named only when the difference exceeds
// run-to-run spread: the two 95% intervals must not overlap.
func TestContentionFindingsNameAWinnerOnlyWhenIntervalsSeparate(t *testing.T) {
	tests := []struct {
		name       string
		best, wrst sim.ContentionRow
		winner     bool
		want       string
	}{
		{"separated", contentionCell(sim.JitterFull, 5, 30, 33, 36), contentionCell(sim.JitterNone, 5, 55, 61, 67), true,
			"full jitter made fewer write calls than backoff without jitter, beyond run-to-run spread: 33 (95% interval 30–36) against 61 (55–67) over 5 runs"},
		{"overlapping", contentionCell(sim.JitterFull, 5, 30, 40, 50), contentionCell(sim.JitterNone, 5, 45, 52, 59), false,
			"full jitter (40 write calls, 95% interval 30–50) and backoff without jitter (52, 45–59) differ by less than run-to-run spread: no winner"},
		{"touching", contentionCell(sim.JitterFull, 5, 30, 40, 50), contentionCell(sim.JitterNone, 5, 50, 55, 60), false, "no winner"},
		{"one run", contentionCell(sim.JitterFull, 1, 20, 20, 20), contentionCell(sim.JitterNone, 1, 90, 90, 90), false,
			"from one run each: run-to-run spread is unknown, so no winner is named"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := ContentionFindings(sim.ContentionResult{Rows: []sim.ContentionRow{tt.best, tt.wrst}})
			if len(fs) != 1 {
				t.Fatalf("findings = %q, want one", fs)
			}
			if named := strings.Contains(fs[0], "fewer write calls than"); named != tt.winner {
				t.Errorf("finding %q names a winner: %v, want %v", fs[0], named, tt.winner)
			}
			if !strings.Contains(fs[0], tt.want) {
				t.Errorf("finding %q does not say %q", fs[0], tt.want)
			}
		})
	}
}

func TestContentionCellsShowTheInterval(t *testing.T) {
	r := sampleContention().Contention.Rows[0]
	if got, want := contentionCalls(r), "46 ±6"; got != want {
		t.Errorf("contentionCalls = %q, want %q", got, want)
	}
	if got, want := contentionCompletion(r), "1.24s ±240ms"; got != want {
		t.Errorf("contentionCompletion = %q, want %q", got, want)
	}
	r.Runs = 1
	if got, want := contentionCalls(r), "46"; got != want {
		t.Errorf("one run: contentionCalls = %q, want %q (no spread known)", got, want)
	}
}
