package conform

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rlsim/rlsim/run"
)

// The deadlines of a run, in real time. Every call to Redis (the dial, each
// command, the pool's wait for a connection) has CallTimeout. A check goes on
// through a few failed calls (each a store error, decided by the limit's fail
// mode), but a Redis whose calls have all failed for GoneAfter, from the send
// of the first, has gone away: the run stops with an *run.UnfinishedError,
// at the latest GoneAfter + CallTimeout after that first failed call was sent
// (Bound). A race stops at its first failed call: a fleet short of an answer
// measures nothing.
//
// A call to a healthy Redis takes well under a millisecond; two seconds
// leave room for a machine that stalls, and a Redis failing over comes back,
// if at all, within a few seconds.
const (
	CallTimeout = 2 * time.Second
	GoneAfter   = 5 * time.Second
)

// Bound is the longest a run goes on after the first of a streak of failed
// calls was sent, when every call from then on fails.
const Bound = GoneAfter + CallTimeout

// Deadlines are a run's CallTimeout and GoneAfter; zero fields take those.
type Deadlines struct {
	Call, Gone time.Duration
}

func (d Deadlines) call() time.Duration {
	if d.Call > 0 {
		return d.Call
	}
	return CallTimeout
}

func (d Deadlines) gone() time.Duration {
	if d.Gone > 0 {
		return d.Gone
	}
	return GoneAfter
}

// withDeadlines is o with every network wait of go-redis bounded by call, and
// the per-call context deadlines honoured.
func withDeadlines(o redis.Options, call time.Duration) redis.Options {
	o.DialTimeout, o.ReadTimeout, o.WriteTimeout, o.PoolTimeout = call, call, call, call
	o.ContextTimeoutEnabled = true
	// go-redis waits this long after a failed dial even when it will not dial
	// again: a refused connection should fail at once.
	o.DialerRetryTimeout = time.Millisecond
	return o
}

// streak is a sequential session's run of failed calls: since is when the
// first was sent, zero after a call that reached Redis.
type streak struct {
	since time.Time
	calls int
	last  error
}

func (s *streak) failed(sentAt time.Time, err error) {
	if s.since.IsZero() {
		s.since = sentAt
	}
	s.calls++
	s.last = err
}

func (s *streak) reached() { *s = streak{} }

// gone is the error of a Redis that has failed every call for at least after
// by now, else nil.
func (s *streak) gone(now time.Time, after time.Duration) error {
	if s.since.IsZero() || now.Sub(s.since) < after {
		return nil
	}
	return run.CouldNotFinish(fmt.Errorf("no answer for %v: %d calls in a row failed, the last: %w; the run could not finish",
		now.Sub(s.since).Round(time.Millisecond), s.calls, s.last))
}

// giveUpAt is when the streak, if nothing answers, makes the Redis gone.
func (s *streak) giveUpAt(after time.Duration) (time.Time, bool) {
	if s.since.IsZero() {
		return time.Time{}, false
	}
	return s.since.Add(after), true
}

// unreachable marks the failure of a call made to set a session up.
func unreachable(what string, err error) error {
	return run.CouldNotFinish(fmt.Errorf("%s: %w; the run could not finish", what, err))
}

// callCtx is ctx with the deadline of one call.
func callCtx(ctx context.Context, d Deadlines) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, d.call())
}
