package report

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/contention"
	"github.com/rlsim/rlsim/sim"
)

// contentionCell is a row of 10 clients with the given calls interval.
func contentionCell(j sim.JitterKind, runs int, low, mean, high float64) contention.Row {
	return contention.Row{Clients: 10, Jitter: j, Runs: runs, Calls: mean, CallsLow: low, CallsHigh: high}
}

// A winner of the contention study is named only when the difference exceeds
// run-to-run spread: its 95% interval must overlap no other kind's.
func TestContentionFindingsNameAWinnerOnlyWhenIntervalsSeparate(t *testing.T) {
	full, equal := contentionCell(sim.JitterFull, 5, 30, 33, 36), contentionCell(sim.JitterEqual, 5, 34, 38, 42)
	none := contentionCell(sim.JitterNone, 5, 55, 61, 67)
	tests := []struct {
		name   string
		cells  []contention.Row
		winner bool
		want   string
	}{
		{"separated", []contention.Row{full, none}, true,
			"full jitter made the fewest write calls, beyond run-to-run spread of every other kind: 33 calls, 95% interval 30–36"},
		{"one tied with the best", []contention.Row{full, equal, none}, false,
			"but equal jitter (38 calls, 95% interval 34–42) differs from it by less than run-to-run spread: no single winner; backoff without jitter made the most, 61 calls, 95% interval 55–67; over 5 runs"},
		{"touching", []contention.Row{contentionCell(sim.JitterFull, 5, 30, 40, 50), contentionCell(sim.JitterNone, 5, 50, 55, 60)}, false, "no single winner"},
		{"one run", []contention.Row{contentionCell(sim.JitterFull, 1, 20, 20, 20), contentionCell(sim.JitterNone, 1, 90, 90, 90)}, false,
			"from one run each: run-to-run spread is unknown, so no winner is named"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs := ContentionFindings(contention.Result{Rows: tt.cells})
			if len(fs) != 1 {
				t.Fatalf("findings = %q, want one", fs)
			}
			if named := strings.Contains(fs[0], "beyond run-to-run spread of every other kind"); named != tt.winner {
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
