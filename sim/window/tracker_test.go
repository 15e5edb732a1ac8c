package window

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// bruteMaxInWindow is the most cost admitted in any window [t, t+window).
func bruteMaxInWindow(adm []admission, window time.Duration) int64 {
	slices.SortStableFunc(adm, func(a, b admission) int { return int(a.at - b.at) })
	var best int64
	for i := range adm {
		var sum int64
		for j := i; j < len(adm) && adm[j].at < adm[i].at+window; j++ {
			sum += adm[j].cost
		}
		best = max(best, sum)
	}
	return best
}

// bruteOverLimit measures, on a 1ns grid over [0, end), how long the trailing
// window (t−window, t] held more than limit.
func bruteOverLimit(adm []admission, window time.Duration, limit int64, end time.Duration) time.Duration {
	var over time.Duration
	for t := time.Duration(0); t < end; t++ {
		var sum int64
		for _, a := range adm {
			if a.at <= t && a.at > t-window {
				sum += a.cost
			}
		}
		if sum > limit {
			over++
		}
	}
	return over
}

func TestTrackerMatchesBruteForce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(11, 0))
	for trial := range 300 {
		window := time.Duration(1 + rnd.IntN(40))
		limit := int64(1 + rnd.IntN(6))
		p := NewTracker(window, limit, 1)
		var adm []admission
		at := time.Duration(0)
		for range 1 + rnd.IntN(40) {
			at += time.Duration(rnd.IntN(8))
			a := admission{at, int64(1 + rnd.IntN(3))}
			adm = append(adm, a)
			p.Add(0, a.at, a.cost)
		}
		if want := bruteMaxInWindow(slices.Clone(adm), window); p.best.Count != want {
			t.Fatalf("trial %d: most in a window = %d, brute force %d (window %v, %v)", trial, p.best.Count, want, window, adm)
		}
		in := int64(0)
		for _, a := range adm {
			if a.at >= p.best.Start && a.at < p.best.End {
				in += a.cost
			}
		}
		if in != p.best.Count || p.best.End-p.best.Start != window {
			t.Fatalf("trial %d: the reported window [%v, %v) holds %d, not %d", trial, p.best.Start, p.best.End, in, p.best.Count)
		}
		end := at + window + 1
		if got, want := p.OverLimit(), bruteOverLimit(adm, window, limit, end); got != want {
			t.Fatalf("trial %d: time over the limit = %v, brute force %v (window %v, limit %d, %v)", trial, got, want, window, limit, adm)
		}
		if w := p.Worst(func(int32) string { return "k" }); w.Count != p.best.Count || w.Key != "k" || w.Ratio != float64(w.Count)/float64(limit) {
			t.Fatalf("trial %d: Worst = %+v, want the most in a window %d for key k against %d", trial, w, p.best.Count, limit)
		}
	}
}

// TestFurtherOverIsExact compares ratios whose products overflow 64 bits,
// and ties, which are not further over.
func TestFurtherOverIsExact(t *testing.T) {
	const big = int64(1) << 62
	for _, tc := range []struct {
		a, b Peak
		want bool
	}{
		{Peak{Count: 3, Limit: 2}, Peak{Count: 4, Limit: 3}, true},
		{Peak{Count: 4, Limit: 3}, Peak{Count: 3, Limit: 2}, false},
		{Peak{Count: 2, Limit: 1}, Peak{Count: 4, Limit: 2}, false}, // as far over
		{Peak{Count: big, Limit: big - 1}, Peak{Count: big - 1, Limit: big - 2}, false},
		{Peak{Count: big - 1, Limit: big - 2}, Peak{Count: big, Limit: big - 1}, true},
	} {
		if got := tc.a.FurtherOver(tc.b); got != tc.want {
			t.Errorf("%d/%d FurtherOver %d/%d = %v, want %v", tc.a.Count, tc.a.Limit, tc.b.Count, tc.b.Limit, got, tc.want)
		}
	}
}

// TestRecentOffGivesNoUnit: with the recentLog fast path off, a checked
// tracker whose requests all cost the same counts in no unit (its parted logs
// are keyWindows), and a restart keeps it so.
func TestRecentOffGivesNoUnit(t *testing.T) {
	on, off := NewChecked(time.Second, 10, 1, 2, FastPaths{}), NewChecked(time.Second, 10, 1, 2, FastPaths{RecentOff: true})
	if on.Unit() != 2 || off.Unit() != 0 {
		t.Fatalf("Unit() = %d on, %d with RecentOff; want 2 and 0", on.Unit(), off.Unit())
	}
	off.Restart(time.Second, time.Second, 20)
	if off.Unit() != 0 {
		t.Errorf("after Restart, Unit() = %d with RecentOff, want 0", off.Unit())
	}
}
