package algorithms

import "time"

// Admitter is an Algorithm that can give Decide's verdict alone, for callers
// that need no answer (no headers, no trace): Admit(s, now, cost) returns true
// exactly when Decide would admit the request at once, and then leaves s as
// Decide would. When it returns false it has changed nothing: the caller asks
// Decide for the answer (a refusal, a delay, or a case Admit leaves to Decide,
// such as time going backwards). Admit then Decide on false is Decide, verdict
// for verdict and state for state (property_test.go).
type Admitter[S any] interface {
	Admit(s *S, now time.Duration, cost int64) bool
}

var (
	_ Admitter[FixedWindowState] = (*FixedWindow)(nil)
	_ Admitter[TokenBucketState] = (*TokenBucket)(nil)
	_ Admitter[GCRAState]        = (*GCRA)(nil)

	_ Admitter[SlidingLogState]           = (*SlidingLog)(nil)
	_ Admitter[SlidingWindowCounterState] = (*SlidingWindowCounter)(nil)
)

// Admit is Decide's verdict alone (see Admitter): it spends cost tokens and
// reports true when they are there at now ≥ the last admission.
func (tb *TokenBucket) Admit(s *TokenBucketState, now time.Duration, cost int64) bool {
	_, admitted, _ := tb.Answer(s, now, cost)
	return admitted
}

// Admit is Decide's verdict alone (see Admitter): it moves the TAT and reports
// true when the request conforms at now.
func (g *GCRA) Admit(s *GCRAState, now time.Duration, cost int64) bool {
	_, admitted, _ := g.Answer(s, now, cost)
	return admitted
}

// Admit is Decide's verdict alone (see Admitter): it counts cost in now's
// window and reports true when the window has room for it.
func (fw *FixedWindow) Admit(s *FixedWindowState, now time.Duration, cost int64) bool {
	_, admitted, _ := fw.Answer(s, now, cost)
	return admitted
}
