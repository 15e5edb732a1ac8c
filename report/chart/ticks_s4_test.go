package chart

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// Tick labels are the tick's value rounded to six decimals, without needless
// ones: -0.3999999999999999 reads -0.4, not -0.399999; minor ticks stay
// unlabelled, as gonum leaves them.
func TestPlainTicksRoundToSixDecimals(t *testing.T) {
	for _, r := range [][2]float64{{-1, -0.371}, {-1, -0.926}, {-1, 0.295}, {-0.7, -0.626}, {0, 0.7}, {0, 1.4}, {0, 3.5}, {-3, 250}, {0, 0.0007}, {0, 7e-6}} {
		def := plot.DefaultTicks{}.Ticks(r[0], r[1])
		got := plainTicks{}.Ticks(r[0], r[1])
		if len(got) != len(def) {
			t.Fatalf("Ticks(%v, %v): %d ticks, gonum's %d", r[0], r[1], len(got), len(def))
		}
		for i, tk := range got {
			if tk.Value != def[i].Value || (tk.Label == "") != (def[i].Label == "") {
				t.Errorf("Ticks(%v, %v)[%d] = %v %q, gonum's %v %q: same value, labelled alike", r[0], r[1], i, tk.Value, tk.Label, def[i].Value, def[i].Label)
			}
			if tk.Label == "" {
				continue
			}
			v, err := strconv.ParseFloat(tk.Label, 64)
			if err != nil || math.Abs(v-tk.Value) > 1e-9 {
				t.Errorf("Ticks(%v, %v): tick at %v labelled %q, want its value to six decimals", r[0], r[1], tk.Value, tk.Label)
			}
			if _, frac, ok := strings.Cut(tk.Label, "."); ok && (len(frac) > 6 || strings.HasSuffix(frac, "0")) {
				t.Errorf("Ticks(%v, %v): label %q has needless decimals", r[0], r[1], tk.Label)
			}
		}
	}
}
