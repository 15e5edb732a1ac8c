package sim

import "time"

// retryScale is Finagle's TokenRetryBudget.ScaleFactor: a request deposits
// this many tokens, so that ratios below 1 need no fractions.
const retryScale = 1000

// defaultBudgetTTL is Finagle's RetryBudget default ttl.
const defaultBudgetTTL = 10 * time.Second

// retryBudget is one client's RetryBudget: Finagle's token bucket whose
// tokens expire ttl after they were put, kept exactly as a log of the
// deposits and withdrawals of the last ttl.
type retryBudget struct {
	deposit, withdrawal int64
	reserve             int64
	ttl                 time.Duration
	sum                 int64         // of the log's amounts
	log                 []budgetEntry // oldest first, from head
	head                int
}

// budgetEntry is one deposit (positive) or withdrawal (negative) and its time.
type budgetEntry struct {
	at     time.Duration
	amount int64
}

// newRetryBudget is Finagle's RetryBudget.apply(ttl, minRetriesPerSec,
// percentCanRetry) for b.
func newRetryBudget(b RetryBudget) retryBudget {
	ttl := b.TTL
	if ttl == 0 {
		ttl = defaultBudgetTTL
	}
	rb := retryBudget{deposit: retryScale, withdrawal: 1, ttl: ttl}
	if b.Ratio == 0 {
		rb.deposit = 0
	} else {
		rb.withdrawal = int64(retryScale / b.Ratio)
	}
	rb.reserve = int64(b.MinPerSecond) * int64(ttl/time.Second) * rb.withdrawal
	return rb
}

// expire drops the entries put at or before now − ttl: a token lives in (at, at+ttl).
func (b *retryBudget) expire(now time.Duration) {
	for b.head < len(b.log) && b.log[b.head].at <= now-b.ttl {
		b.sum -= b.log[b.head].amount
		b.head++
	}
	if b.head > 64 && b.head*2 > len(b.log) {
		b.log = append(b.log[:0], b.log[b.head:]...)
		b.head = 0
	}
}

func (b *retryBudget) put(now time.Duration, amount int64) {
	if amount == 0 {
		return
	}
	b.expire(now)
	b.log = append(b.log, budgetEntry{at: now, amount: amount})
	b.sum += amount
}

// depositRequest credits a new request sent at now (Finagle's deposit).
func (b *retryBudget) depositRequest(now time.Duration) { b.put(now, b.deposit) }

// tokens is what the budget holds at now: the live entries and the reserve.
func (b *retryBudget) tokens(now time.Duration) int64 {
	b.expire(now)
	return b.sum + b.reserve
}

// tryWithdraw takes a retry's tokens at now if the budget holds at least
// that many (Finagle's tryWithdraw: count >= n), and reports whether it did.
func (b *retryBudget) tryWithdraw(now time.Duration) bool {
	if b.tokens(now) < b.withdrawal {
		return false
	}
	b.put(now, -b.withdrawal)
	return true
}
