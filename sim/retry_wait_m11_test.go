package sim

import (
	"testing"
	"time"
)

// retryWait at each case of its doc comment: a fixed delay; an exponential
// backoff's cap, its mean under full jitter, never under its base, or its
// base without a cap; nothing for other retries.
func TestRetryWaitOfEachPolicy(t *testing.T) {
	const base, cap = 100 * time.Millisecond, 2 * time.Second
	for _, c := range []struct {
		r    Retry
		want time.Duration
	}{
		{Retry{Kind: RetryFixed, Delay: 300 * time.Millisecond}, 300 * time.Millisecond},
		{Retry{Kind: RetryExponential, Base: base}, base},
		{Retry{Kind: RetryExponential, Base: base, Cap: -1}, base},
		{Retry{Kind: RetryExponential, Base: base, Cap: cap}, cap},
		{Retry{Kind: RetryExponential, Base: base, Cap: cap, Jitter: JitterEqual}, cap},
		{Retry{Kind: RetryExponential, Base: base, Cap: cap, Jitter: JitterFull}, cap / 2},
		{Retry{Kind: RetryExponential, Base: 3 * time.Second, Cap: cap, Jitter: JitterFull}, 3 * time.Second},
		{Retry{Kind: RetryExponential, Base: 3 * time.Second, Cap: cap}, 3 * time.Second},
		{Retry{Kind: RetryImmediate, Delay: time.Second, Base: base}, 0},
		{Retry{}, 0},
	} {
		if got := retryWait(c.r); got != c.want {
			t.Errorf("retryWait(%+v) = %v, want %v", c.r, got, c.want)
		}
	}
}
