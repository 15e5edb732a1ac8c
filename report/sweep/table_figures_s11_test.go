package sweep

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// TestSweepTableColumnsShowTheirFigures: under the heads docs/output.md
// defines by their figure, each lane's cell is that figure: "retry amp"
// attempts per unique request, "vs limit" the worst window over the limit,
// "success" the share of unique requests that succeeded, "admitted"
// admissions a second (one seed; every figure differs from the others).
func TestSweepTableColumnsShowTheirFigures(t *testing.T) {
	res := twoLanes(9, 5, "all")
	for i := range res.Lanes {
		l := &res.Lanes[i]
		l.Attempts, l.Admitted = int64(25+10*i), int64(7-3*i)
		l.RetryAmplification = float64(l.Attempts) / float64(l.Unique) // 2.5 and 3.5, as sim measures it
	}
	heads, rows := tableCells(t, sweepOf([]*sim.Result{res}), "lane  ")
	col := map[string]int{}
	for i, h := range heads {
		col[h] = i
	}
	rowOf := func(title string) []string {
		for _, row := range rows {
			if len(row) > 1 && row[0] == title && row[1] == "all" {
				return row // the lane's totals come first
			}
		}
		t.Fatalf("no row of %s's totals: %q", title, rows)
		return nil
	}
	for _, l := range res.Lanes {
		row := rowOf(strings.ReplaceAll(l.Name, "_", " "))
		want := map[string]string{
			"retry amp": formatFigure("retry_amplification", float64(l.Attempts)/float64(l.Unique)),
			"vs limit":  formatFigure("peak_ratio", l.Peak.Ratio),
			"success":   formatFigure("success_rate", float64(l.Succeeded)/float64(l.Unique)),
			"admitted":  formatFigure("admitted_rate", float64(l.Admitted)/res.Duration.Seconds()),
		}
		for h, w := range want {
			i, ok := col[h]
			if !ok || i >= len(row) || row[i] != w {
				t.Errorf("%s, column %q: row %q, want %q there", l.Name, h, row, w)
			}
		}
	}
}
