package algorithms

import (
	"testing"
	"time"
)

// A request charged late (another replica's, time gone backwards) counts in
// its own interval: within the evaluation window it is seen, older it changes
// nothing, however much older, even where its interval's slot in the ring is
// the current one's.
func TestAWSWAFLateChargeCountsInItsOwnInterval(t *testing.T) {
	const limit, interval, n = 100, 10 * time.Second, 6 // a 60s window of 10s intervals
	w := must(NewAWSWAF(AWSWAFParams{Limit: limit, EvaluationWindowSec: 60}))
	now := 100 * interval
	for back := int64(0); back <= 3*n; back++ {
		var s AWSWAFState
		w.Decide(&s, now, 1)
		w.Charge(&s, now-time.Duration(back)*interval+time.Second, 5)
		d := w.Decide(&s, now, 1)
		seen := int64(2) // the two decisions'
		if back < n {    // the next evaluation sees intervals now-n+1 … now
			seen += 5
		}
		if d.Remaining != limit-seen || d.Verdict != Admit {
			t.Errorf("a charge %d intervals back: %+v, want admitted with %d remaining", back, d, limit-seen)
		}
	}
}
