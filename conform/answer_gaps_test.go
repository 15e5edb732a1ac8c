package conform

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// The longest Retry-After a script may give is two windows plus the whole
// burst's refill (rounded up) plus a nanosecond; a policy without a rate, or
// one whose bound passes Never, allows anything short of Never.
func TestMaxRetryAfterEdges(t *testing.T) {
	for _, tc := range []struct {
		p    algorithms.Policy
		want time.Duration
	}{
		{algorithms.Policy{Limit: 7, Window: time.Second, Burst: 5}, 2*time.Second + 714285715 + 1},
		{algorithms.Policy{Limit: 10, Window: time.Second}, 3*time.Second + 1},
		{algorithms.Policy{Limit: 3, Window: 1, Burst: 1}, 2 + 1 + 1},
		{algorithms.Policy{Limit: 0, Window: time.Second}, algorithms.Never - 1},
		{algorithms.Policy{Limit: 1, Window: 0}, algorithms.Never - 1},
		{algorithms.Policy{Limit: 1, Window: algorithms.Never / 2}, algorithms.Never - 1},
	} {
		if got := maxRetryAfter(tc.p); got != tc.want {
			t.Errorf("maxRetryAfter(%+v) = %d, want %d", tc.p, got, tc.want)
		}
	}
}

// satAdd adds up to Never-1 and no further.
func TestSatAddStopsShortOfNever(t *testing.T) {
	const top = algorithms.Never - 1
	for _, tc := range []struct{ a, b, want time.Duration }{
		{1, 2, 3}, {top - 5, 5, top}, {top - 5, 6, top}, {top, top, top}, {0, 0, 0},
	} {
		if got := satAdd(tc.a, tc.b); got != tc.want {
			t.Errorf("satAdd(%d, %d) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
	}
}

// A refusal may ask for a wait of 0 (try again now) and of exactly the bound;
// -1 is never; a list of two or three integers, not more.
func TestRefusalWaitEdges(t *testing.T) {
	r := newAnswerRules(ClockScheduled, 1, testPolicy, 0, 0)
	bound := int64(maxRetryAfter(testPolicy)) + 1 // the scale's nanosecond of slack, Passed = Received
	for _, tc := range []struct {
		retry int64
		valid bool
		want  time.Duration
	}{{0, true, 0}, {-1, true, algorithms.Never}, {bound, true, time.Duration(bound)}, {bound + 1, false, 0}, {-2, false, 0}} {
		a := Answer{Sent: time.Second, Received: time.Second, Passed: time.Second, Now: time.Second}
		if err := r.read([]any{int64(0), tc.retry}, nil, &a); err != nil {
			t.Fatal(err)
		}
		if (a.Invalid == "") != tc.valid || (tc.valid && (a.Admitted || a.RetryAfter != tc.want)) {
			t.Errorf("refusal with retry_after %d: invalid %q, admitted %v, retry %d; want valid %v, retry %d", tc.retry, a.Invalid, a.Admitted, a.RetryAfter, tc.valid, tc.want)
		}
	}
}
