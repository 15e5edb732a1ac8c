package sweep

import (
	"math"
	"testing"
)

// TestT975BeyondTheTable holds T975's promise past the table's 30 degrees of
// freedom: the Cornish-Fisher expansion within 1e-5 of Student's t 97.5%
// quantile (reference values from R's qt(0.975, df)), and falling towards the
// normal quantile from the table's last entry.
func TestT975BeyondTheTable(t *testing.T) {
	for _, c := range []struct {
		df   int
		want float64
	}{{31, 2.039513}, {40, 2.021075}, {60, 2.000298}, {120, 1.979930}, {1000, 1.962339}} {
		if got := T975(c.df); math.Abs(got-c.want) > 1e-5 {
			t.Errorf("T975(%d) = %.6f, want %.6f within 1e-5", c.df, got, c.want)
		}
	}
	prev := T975(30)
	for df := 31; df <= 200; df++ {
		got := T975(df)
		if !(got < prev && got > 1.959963984540054) {
			t.Fatalf("T975(%d) = %v after T975(%d) = %v: want falling towards 1.96", df, got, df-1, prev)
		}
		prev = got
	}
}
