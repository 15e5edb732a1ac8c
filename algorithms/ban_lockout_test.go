package algorithms

import (
	"testing"
	"time"
)

// A ban over a bucket that starts empty and forgets a key 1ns after it is full
// again (token bucket 10 per 1s: full from empty in 1s; ban 2s): at the ban's
// end the key, full for a second, is forgotten back to empty and refused, so
// no wait admits it. The refusal says Never, not the ban's 2s, and a retry at
// 2s (as a product's Retry-After would tell) is refused and banned again. A
// ban shorter than the refill (500ms) keeps its exact 500ms Retry-After.
func TestBanOverAStartThatForgetsIsNever(t *testing.T) {
	tb := must(NewTokenBucket(Policy{Limit: 10, Window: time.Second}))
	empty, err := StartAt[TokenBucketState](tb, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	long, err := WithBan[TokenBucketState](empty, 2*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	var s BanState[TokenBucketState]
	if p := long.Peek(&s, 0, 1); p.RetryAfter != Never || !p.RetryAfterExact {
		t.Errorf("Peek of a new key: RetryAfter %v exact %v, want Never, exact", p.RetryAfter, p.RetryAfterExact)
	}
	d := long.Decide(&s, 0, 1)
	if d.Verdict != Refuse || d.RetryAfter != Never || !d.RetryAfterExact {
		t.Errorf("first request: %v, RetryAfter %v exact %v; want refused, Never, exact", d.Verdict, d.RetryAfter, d.RetryAfterExact)
	}
	if in := long.Decide(&s, time.Second, 1); in.Verdict != Refuse || in.RetryAfter != Never {
		t.Errorf("inside the ban: %v, RetryAfter %v; want refused, Never", in.Verdict, in.RetryAfter)
	}
	if at := long.Decide(&s, 2*time.Second, 1); at.Verdict != Refuse || at.RetryAfter != Never {
		t.Errorf("at the ban's end: %v, RetryAfter %v; want refused (forgotten back to empty), Never", at.Verdict, at.RetryAfter)
	}

	short, err := WithBan[TokenBucketState](empty, 500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	var k BanState[TokenBucketState]
	d = short.Decide(&k, 0, 1)
	if d.RetryAfter != 500*time.Millisecond || !d.RetryAfterExact {
		t.Errorf("a ban shorter than the refill: RetryAfter %v exact %v, want 500ms exact", d.RetryAfter, d.RetryAfterExact)
	}
	if again := short.Decide(&k, 500*time.Millisecond, 1); again.Verdict != Admit {
		t.Errorf("the retry at 500ms: %v, want admitted (5 tokens refilled, not yet full)", again.Verdict)
	}
}
