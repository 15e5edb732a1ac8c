package algorithms

import (
	"testing"
	"time"
)

// onlyReserving is a Reserving rule of another package's kind: its methods
// are the interface's alone (no peekReserve), so Wait.Peek takes its
// general branch.
type onlyReserving struct{ Reserving[TokenBucketState] }

// Wait.Peek around any Reserving rule is the Decision Decide would return,
// delays up to the longest wait included, with the state left as it is.
func TestWaitPeekOfAnyReservingRule(t *testing.T) {
	tb, err := NewTokenBucket(Policy{Limit: 2, Window: time.Second, Burst: 2})
	if err != nil {
		t.Fatal(err)
	}
	w, err := WithWait[TokenBucketState](onlyReserving{tb}, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var s TokenBucketState
	delayed := 0
	for k := range 8 {
		now := time.Duration(k) * 100 * time.Millisecond
		before := s
		peek := w.Peek(&s, now, 1)
		if s != before {
			t.Fatalf("t=%v: Peek changed the state", now)
		}
		if got := w.Decide(&s, now, 1); got != peek {
			t.Fatalf("t=%v: Peek %+v, Decide %+v", now, peek, got)
		}
		if peek.Verdict == Delay {
			delayed++
		}
	}
	if delayed == 0 {
		t.Fatal("no request was delayed: the test does not reach a wait")
	}
}
