package sweep

import (
	"image/color"
	"testing"
)

// A ramp colours lo with its first stop, hi with its last and the middle with
// the middle stop, clamping outside [lo, hi]; a flat figure (lo == hi) is drawn
// at the middle, saying neither good nor bad.
func TestHeatRampEndsMiddleAndFlat(t *testing.T) {
	for _, name := range []string{"success_rate", "attempts", "p99"} {
		r := figureRamp(name, 10, 20)
		for _, tc := range []struct {
			v    float64
			want color.RGBA
		}{
			{10, r.stops[0]}, {5, r.stops[0]}, {15, r.stops[1]}, {20, r.stops[2]}, {30, r.stops[2]},
		} {
			if got := r.At(tc.v); got != tc.want {
				t.Errorf("%s ramp [10, 20]: At(%v) = %v, want %v", name, tc.v, got, tc.want)
			}
		}
		if got, below, above := r.At(14), r.At(10), r.At(16); got == below || got == above {
			t.Errorf("%s ramp [10, 20]: At(14) = %v, want between At(10) %v and At(16) %v", name, got, below, above)
		}
		flat := figureRamp(name, 7, 7)
		for _, v := range []float64{7, 0, 100} {
			if got := flat.At(v); got != flat.stops[1] {
				t.Errorf("%s ramp [7, 7]: At(%v) = %v, want the middle stop %v", name, v, got, flat.stops[1])
			}
		}
	}
}
