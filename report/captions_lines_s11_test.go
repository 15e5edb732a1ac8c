package report

import (
	"regexp"
	"slices"
	"testing"

	"github.com/rlsim/rlsim/report/chart"
)

// TestCaptionLinesAreInTheLegend: where a figure's caption says what "the
// dashed line" or "the solid line" is, its legend has a line drawn so, in
// every figure of the demo's and downstream-slowdown's reports.
func TestCaptionLinesAreInTheLegend(t *testing.T) {
	said := regexp.MustCompile(`the (dashed|solid) line is`)
	seen := 0
	for _, name := range []string{"demo", "downstream-slowdown"} {
		for _, f := range Figures(simulate(t, name)) {
			for _, m := range said.FindAllStringSubmatch(f.Caption, -1) {
				seen++
				dashed := m[1] == "dashed"
				if !slices.ContainsFunc(f.Legend, func(e chart.LegendEntry) bool { return e.Line && e.Dashed == dashed }) {
					t.Errorf("%s, figure %s: the caption says %q, the legend has no %s line: %+v", name, f.Name, m[0], m[1], f.Legend)
				}
			}
		}
	}
	if seen == 0 {
		t.Fatal("no caption names a line: the test holds nothing")
	}
}
