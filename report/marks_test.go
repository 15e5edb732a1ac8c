package report

import (
	"os"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/report/chart"
	"github.com/rlsim/rlsim/sim"
)

// TestReportReadsTheTableOfMarks holds the HTML report's hand-kept copies of
// sim's colours to the table: the stylesheet's and the script's (which lists
// them by trace event).
func TestReportReadsTheTableOfMarks(t *testing.T) {
	css, err := os.ReadFile("assets/report.css")
	if err != nil {
		t.Fatal(err)
	}
	js, err := os.ReadFile("assets/report.js")
	if err != nil {
		t.Fatal(err)
	}
	short := [sim.MarkKinds]string{"admit", "delay", "refuse", "shed", "drop"} // the stylesheet's names
	for m := range sim.Mark(sim.MarkKinds) {
		if want := "--" + short[m] + ":" + m.Info().Colour + ";"; !strings.Contains(string(css), want) {
			t.Errorf("report.css lacks %s (sim's colour of %s)", want, m)
		}
	}
	var colours []string
	for e := sim.TraceAdmit; e < sim.TraceSuccess; e++ {
		m, ok := sim.MarkOf(e)
		if !ok {
			t.Fatalf("trace event %s has no mark", e)
		}
		colours = append(colours, "'"+m.Info().Colour+"'")
	}
	if want := "var COLOURS = [" + strings.Join(colours, ", ") + "];"; !strings.Contains(string(js), want) {
		t.Errorf("report.js lacks %s", want)
	}
	if got, want := chart.ColAdmitted, chart.MarkColour(sim.MarkAdmitted); got != want || got.B != 0xB2 {
		t.Errorf("chart.ColAdmitted = %v, want %v (#0072B2)", got, want)
	}
}
