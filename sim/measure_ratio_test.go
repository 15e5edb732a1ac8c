package sim

import (
	"strconv"
	"testing"
)

func TestRatioNeverRoundsAnExcessAway(t *testing.T) {
	for _, tc := range []struct {
		count, limit int64
		want         string
	}{
		{10010, 10000, "1.001"}, {10000, 10000, "1"}, {9999, 10000, "0.9999"}, {20, 10, "2"},
		{11, 10, "1.1"}, {1000001, 1000000, "1.000001"}, {100049, 100000, "1.0005"},
		{10000001, 10000000, "1.0000001"}, {1 << 40, 1<<40 - 1, "1.000000000001"},
	} {
		if got := RatioText(tc.count, tc.limit, false); got != tc.want {
			t.Errorf("RatioText(%d, %d) = %q, want %q", tc.count, tc.limit, got, tc.want)
		}
	}
	// Property: over the limit always reads above 1, under it below 1.
	for limit := int64(1); limit <= 2000; limit += 37 {
		for count := limit - 3; count <= limit+3; count++ {
			for _, fixed := range []bool{false, true} {
				v, err := strconv.ParseFloat(RatioText(count, limit, fixed), 64)
				if err != nil || (count > limit) != (v > 1) || (count < limit) != (v < 1) {
					t.Errorf("RatioText(%d, %d, %v) = %v", count, limit, fixed, v)
				}
			}
		}
	}
}
