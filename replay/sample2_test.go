package replay

import "testing"

// A share is at most 100%: 100% itself (or 1) is a share --where accepts.
func TestWhereShareUpTo100Percent(t *testing.T) {
	for _, tc := range []struct {
		in   string
		ok   bool
		want float64
	}{{"refused_share <= 100%", true, 1}, {"refused_share <= 1", true, 1}, {"refused_share <= 99.5%", true, 0.995},
		{"refused_share <= 100.1%", false, 0}, {"refused_share <= 1.01", false, 0}} {
		w, err := ParseWhere(tc.in, nil)
		if (err == nil) != tc.ok || tc.ok && w.Want != tc.want {
			t.Errorf("ParseWhere(%q) = %v, %v; want accepted %v with %v", tc.in, w.Want, err, tc.ok, tc.want)
		}
	}
}

// quantile is the nearest rank ⌈q·n⌉ of the keys sorted by peak.
func TestQuantileIsNearestRank(t *testing.T) {
	sorted := []peakCount{{peak: 1, keys: 1}, {peak: 2, keys: 1}, {peak: 5, keys: 2}}
	// Four keys with peaks 1, 2, 5, 5.
	for _, tc := range []struct {
		q    float64
		want int64
	}{{0.25, 1}, {0.3, 2}, {0.5, 2}, {0.6, 5}, {0.99, 5}, {0, 1}} {
		if got := quantile(sorted, tc.q); got != tc.want {
			t.Errorf("quantile(1, 2, 5, 5; %v) = %d, want %d", tc.q, got, tc.want)
		}
	}
}
