package sweep

import (
	"image/color"
	"strconv"
	"strings"
	"testing"
)

// A heatmap's good end reads as good: 100% success is green, not red (the
// blue–red scale once painted it red), a peak over the limit is orange, and
// the legend holds the scale with its best and worst ends named.
func TestHeatmapGoodEndReadsGood(t *testing.T) {
	greenish := func(c color.Color) bool { r, g, _, _ := c.RGBA(); return g > r }
	for _, tc := range []struct {
		figure     string
		lo, hi     float64
		good, bad  float64
		best, wrst string
	}{
		{"success_rate", 50, 100, 100, 50, "100 (best)", "50 (worst)"},
		{"fairness", 0.2, 1, 1, 0.2, "1 (best)", "0.2 (worst)"},
		{"peak_ratio", 1, 2, 1, 2, "1 (best)", "2 (worst)"},
		{"refused_rate", 0, 40, 0, 40, "0 (best)", "40 (worst)"},
	} {
		ramp := figureRamp(tc.figure, tc.lo, tc.hi)
		if !greenish(ramp.At(tc.good)) || greenish(ramp.At(tc.bad)) {
			t.Errorf("%s: the good end %v is %v, the bad end %v is %v; want green and orange",
				tc.figure, tc.good, ramp.At(tc.good), tc.bad, ramp.At(tc.bad))
		}
		legend := ramp.legend(func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) })
		var labels []string
		for _, e := range legend {
			labels = append(labels, e.Label)
		}
		all := strings.Join(labels, ", ")
		if len(legend) != 5 || !strings.Contains(all, tc.best) || !strings.Contains(all, tc.wrst) {
			t.Errorf("%s: legend %q, want five swatches naming %q and %q", tc.figure, all, tc.best, tc.wrst)
		}
	}
	if got := meanOver(1); strings.Contains(got, "seeds") {
		t.Errorf("meanOver(1) = %q, want 1 seed", got)
	}
	if got := meanOver(5); got != "the mean over 5 seeds" {
		t.Errorf("meanOver(5) = %q", got)
	}
}
