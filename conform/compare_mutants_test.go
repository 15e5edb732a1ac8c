package conform

import (
	"testing"
	"time"
)

// TestCompareRetryInstantBothWays holds compare to Agreed's promise, "retry
// instants within the tolerance of each other", on both sides: a real
// Retry-After that ends early is as far off as one that ends late. The first
// rows are the case, a Retry-After 500 ms early with a 10 ms tolerance.
func TestCompareRetryInstantBothWays(t *testing.T) {
	const tol = 10 * ms
	exact := refuseAt(100*ms, time.Second) // retry instant 1.1s
	tests := []struct {
		name string
		real Answer
		want Outcome
	}{
		{"500ms early", refused(100*ms, 500*ms), RetryAfterDiffered},
		{"500ms late", refused(100*ms, 1500*ms), RetryAfterDiffered},
		{"tol+1ns early", refused(100*ms, time.Second-tol-1), RetryAfterDiffered},
		{"tol early", refused(100*ms, time.Second-tol), Agreed},
		{"same instant, decided later", refused(600*ms, 500*ms), Agreed},
		{"tol late", refused(100*ms, time.Second+tol), Agreed},
		{"tol+1ns late", refused(100*ms, time.Second+tol+1), RetryAfterDiffered},
		{"decided tol+1ns earlier, same wait", refused(100*ms-tol-1, time.Second), RetryAfterDiffered},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := compare(exact, tt.real, tol); got != tt.want {
				t.Errorf("compare(%+v, %+v, %v) = %d, want %d", exact, tt.real, tol, got, tt.want)
			}
		})
	}
}

// TestCompareWithinIsAtMostTol walks the other boundary both ways: verdicts that
// differ are within the tolerance when the refusing side's Retry-After is at
// most tol, whichever side refused.
func TestCompareWithinIsAtMostTol(t *testing.T) {
	const tol = 10 * ms
	for _, tt := range []struct {
		name  string
		exact Attempt
		real  Answer
		want  Outcome
	}{
		{"redis refuses for tol-1ns", admitAt(0), refused(0, tol-1), DifferedWithin},
		{"redis refuses for tol", admitAt(0), refused(0, tol), DifferedWithin},
		{"exact refuses for tol", refuseAt(0, tol), admitted(0), DifferedWithin},
		{"exact refuses for tol+1ns", refuseAt(0, tol+1), admitted(0), Differed},
	} {
		if got := compare(tt.exact, tt.real, tol); got != tt.want {
			t.Errorf("%s: compare(%+v, %+v, %v) = %d, want %d", tt.name, tt.exact, tt.real, tol, got, tt.want)
		}
	}
}
