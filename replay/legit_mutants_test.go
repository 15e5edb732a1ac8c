package replay

import "testing"

// TestLegitBoundaries walks the two boundaries of LegitBelow's doc comment ("at
// most this many requests per window in at least LegitShare of the windows it
// sent anything"): a window of exactly LegitBelow requests is below, one more
// is not; a key below in exactly the share of its windows is legitimate, one
// window fewer is not. Windows with nothing sent do not count.
func TestLegitBoundaries(t *testing.T) {
	const below = 5
	key := func(counts ...int64) *keyRate {
		k := &keyRate{}
		for _, c := range counts {
			k.count = c
			k.close(below)
		}
		return k
	}
	for _, tt := range []struct {
		counts     []int64
		active     int64
		belowCount int64
	}{
		{[]int64{5}, 1, 1},
		{[]int64{6}, 1, 0},
		{[]int64{0, 5, 0, 6}, 2, 1},
	} {
		k := key(tt.counts...)
		if k.active != tt.active || k.below != tt.belowCount {
			t.Errorf("windows %v, below %d: active %d below %d, want %d and %d", tt.counts, below, k.active, k.below, tt.active, tt.belowCount)
		}
	}
	// 9 of 10 windows below: legitimate at share 0.9, not at 0.91.
	k := key(5, 5, 5, 5, 5, 5, 5, 5, 5, 6)
	if !k.legit(0.9) {
		t.Errorf("9 of 10 windows at or below: legit(0.9) = false, want true")
	}
	if k.legit(0.91) {
		t.Errorf("9 of 10 windows at or below: legit(0.91) = true, want false")
	}
	if k := key(5, 6); !k.legit(0.5) {
		t.Errorf("1 of 2 windows at or below: legit(0.5) = false, want true")
	}
}
