package engine

import (
	"math/rand/v2"
	"testing"
	"time"
)

// TestGrowChangesNothingPending: Grow makes room and nothing else: on queues
// holding random events, the pending count and every event popped after a
// Grow (of none, a few, more than the heap keeps) are those of a twin never
// grown, and the heap's room is at least what was asked (up to its bound).
func TestGrowChangesNothingPending(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 8))
	for trial := range 50 {
		var grown, plain Queue
		for i := range rnd.IntN(300) {
			at := time.Duration(rnd.IntN(50)) * time.Millisecond
			grown.Schedule(at, kindLast, int32(i), 0)
			plain.Schedule(at, kindLast, int32(i), 0)
		}
		n := []int{0, 1, 7, 1000, nearMax + 5}[trial%5]
		grown.Grow(n)
		if room := cap(grown.heap) - len(grown.heap); room < min(n, nearMax+1) {
			t.Errorf("trial %d: Grow(%d) left room for %d", trial, n, room)
		}
		if grown.Pending() != plain.Pending() {
			t.Fatalf("trial %d: Grow(%d) made %d pending, not %d", trial, n, grown.Pending(), plain.Pending())
		}
		for plain.Pending() > 0 {
			if a, b := grown.Pop(), plain.Pop(); a != b {
				t.Fatalf("trial %d: after Grow(%d) popped %+v, not %+v", trial, n, a, b)
			}
		}
	}
}
