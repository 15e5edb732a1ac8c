package algorithms

import "time"

// Refuser is an Admitter that can also say, for a request Admit did not admit,
// that Decide would refuse it and with which Retry-After, without building a
// Decision: for callers that count refusals and their Retry-After but need no
// headers. When Refusal reports refused, Decide would refuse the request with
// that RetryAfter and change nothing; otherwise the caller asks Decide (a
// delay, or a case Refusal leaves to Decide, such as time going backwards).
// Refusal never changes s (refusal_test.go).
type Refuser[S any] interface {
	Refusal(s *S, now time.Duration, cost int64) (retryAfter time.Duration, refused bool)
}

var (
	_ Refuser[FixedWindowState] = (*FixedWindow)(nil)
	_ Refuser[TokenBucketState] = (*TokenBucket)(nil)
	_ Refuser[GCRAState]        = (*GCRA)(nil)
)

// Refusal is Decide's refusal alone (see Refuser): refused when the bucket
// lacks cost tokens at now ≥ the last admission.
func (tb *TokenBucket) Refusal(s *TokenBucketState, now time.Duration, cost int64) (retryAfter time.Duration, refused bool) {
	scratch := *s // Answer would spend what it admits
	retryAfter, _, refused = tb.Answer(&scratch, now, cost)
	return retryAfter, refused
}

// Refusal is Decide's refusal alone (see Refuser): refused when the request
// would not conform at now, within Burst×T of the TAT.
func (g *GCRA) Refusal(s *GCRAState, now time.Duration, cost int64) (retryAfter time.Duration, refused bool) {
	scratch := *s
	retryAfter, _, refused = g.Answer(&scratch, now, cost)
	return retryAfter, refused
}

// Refusal is Decide's refusal alone (see Refuser): refused when now's window
// has no room for cost.
func (fw *FixedWindow) Refusal(s *FixedWindowState, now time.Duration, cost int64) (retryAfter time.Duration, refused bool) {
	scratch := *s
	retryAfter, _, refused = fw.Answer(&scratch, now, cost)
	return retryAfter, refused
}
