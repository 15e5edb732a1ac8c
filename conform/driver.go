package conform

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// Clock is where a limiter script reads the time it decides at.
type Clock uint8

const (
	// ClockScheduled passes each attempt's exact virtual time (ARGV[1]): the
	// script decides at the instant the exact lane did, whenever the call lands.
	ClockScheduled Clock = iota
	// ClockDriver passes the virtual time at which the driver sent the call,
	// the real time since the start × the time scale: late sends and the round
	// trip show as clock skew.
	ClockDriver
	// ClockServer has the script read the server's TIME (ARGV[6] is the epoch):
	// real time, so the time scale must be 1.
	ClockServer
)

var clockNames = [...]string{ClockScheduled: "scheduled", ClockDriver: "driver", ClockServer: "server"}

func (c Clock) String() string {
	if int(c) < len(clockNames) {
		return clockNames[c]
	}
	return fmt.Sprintf("Clock(%d)", c)
}

// ClockNames lists the clocks' names.
func ClockNames() []string { return clockNames[:] }

// ParseClock maps a clock's name to its value; ok is false for an unknown name.
func ParseClock(s string) (Clock, bool) {
	for i, n := range clockNames {
		if n == s {
			return Clock(i), true
		}
	}
	return 0, false
}

// Limiter is a limiter on Redis: one atomic script, or a racy read and write.
type Limiter struct {
	Name        string // for people: the script's name or file
	atomic      *redis.Script
	read, write *redis.Script
}

// NewAtomic is the limiter of one atomic script's source.
func NewAtomic(name, src string) *Limiter {
	return &Limiter{Name: name, atomic: redis.NewScript(src)}
}

// NewRacy is the read-then-write limiter of a read and a write script.
func NewRacy(name, read, write string) *Limiter {
	return &Limiter{Name: name, read: redis.NewScript(read), write: redis.NewScript(write)}
}

// Racy reports whether the limiter reads, then writes (two round trips).
func (l *Limiter) Racy() bool { return l.atomic == nil }

// Replay says how a driver replays attempts.
type Replay struct {
	Clock Clock
	// Scale is how much faster than real time virtual time runs: 10 plays a
	// 60s scenario in 6s. At least 1.
	Scale float64
	// Prefix starts every key written, so that runs share no state.
	Prefix string
	// Deadlines bound every call and say when a Redis that fails every
	// call has gone away; zero fields take CallTimeout and GoneAfter.
	Deadlines Deadlines
}

// Answer is what the limiter on Redis decided for one attempt.
type Answer struct {
	// Sent is the virtual time at which the driver sent the call (real time
	// since the start × Scale), and Received the one its answer came back at.
	Sent, Received time.Duration
	// Passed is the instant passed to the script (ARGV[1]): the attempt's on
	// the scheduled and the server's clocks, Sent on the driver's.
	Passed time.Duration
	// Now is the virtual time the script decided at (its third result; when
	// it returns none, Passed, or Sent on the server's clock).
	Now        time.Duration
	Admitted   bool
	RetryAfter time.Duration // on a refusal; algorithms.Never when no wait would do
	// RoundTrip is the real time of the call (both calls of a racy limiter).
	RoundTrip time.Duration
	// Err is set when the store call failed; Admitted and RetryAfter are then
	// what the limit's fail mode decided.
	Err error
	// Invalid, when not empty, says why the script's answer is not one the
	// calling convention allows (malformed, out of its bounds, or an error the
	// script raised): it is no decision, whatever Admitted says.
	Invalid string
	// Restarted marks the first answer of a Redis that restarted since the
	// answer before (a new run_id): the limiter's state began afresh.
	Restarted bool
}

// session is one connection's replay of attempts from a common start.
type session struct {
	// mu guards rdb against close, from another goroutine, while reconnect
	// replaces it; the session's own goroutine reads rdb without it.
	mu     sync.Mutex
	rdb    *redis.Client
	closed bool
	opts   *redis.Options // rdb's, to reconnect after a store error
	// runID is the server's run_id: a new one after a store error means
	// Redis restarted, and lost the limiter's state (no persistence).
	runID       string
	reconnected bool
	lim         *Limiter
	replay      Replay
	policy      algorithms.Policy
	start       time.Time
	epoch       string // ARGV[6]: the server clock's epoch in µs, or ""
	// epochSlack is how far the server's clock may run ahead of the
	// driver's, in virtual time: the TIME call's round trip.
	epochSlack time.Duration
	// concurrent sends each attempt at its time without waiting for the
	// answers before it, as a server handles requests: a replica.
	concurrent bool
	// fail decides an attempt whose store call failed.
	fail *failMode
	// rules are the answers the calling convention allows the script.
	rules answerRules
	// failing is the streak of failed calls of a sequential session.
	failing streak
	// answered, when set, is told each attempt's index and answer as it
	// comes (concurrently, in a concurrent session).
	answered func(i int, ans Answer)
}

// failMode is a limit's decision when its store fails (sim.FailMode), with
// the fallback limiter of FailLocal, of this connection alone.
type failMode struct {
	mode     sim.FailMode
	mu       sync.Mutex
	fallback twin
}

func (f *failMode) decide(a Attempt, now time.Duration, ans *Answer) {
	switch f.mode {
	case sim.FailOpen:
		ans.Admitted = true
	case sim.FailClosed:
		ans.Admitted = false
	case sim.FailLocal:
		f.mu.Lock()
		d := f.fallback.decide(a.Key, now, a.Cost)
		f.mu.Unlock()
		ans.Admitted, ans.RetryAfter = d.Admitted(), d.RetryAfter
	}
}

// run sends attempts in order, each at its scheduled real time (or at once
// when late), and returns one answer per attempt. A sequential session stops
// with an *run.UnfinishedError when its Redis has gone away (see GoneAfter).
func (s *session) run(ctx context.Context, attempts []Attempt) ([]Answer, error) {
	answers := make([]Answer, len(attempts))
	var wg sync.WaitGroup
	defer wg.Wait()
	for i, a := range attempts {
		due := s.start.Add(time.Duration(float64(a.At) / s.replay.Scale))
		if err := s.wait(ctx, due); err != nil {
			return nil, err
		}
		if !s.concurrent {
			answers[i] = s.decide(ctx, a)
			if s.answered != nil {
				s.answered(i, answers[i])
			}
			if err := ctx.Err(); err != nil {
				return nil, err // the call failed for it: no store error
			}
			if err := s.failing.gone(time.Now(), s.replay.Deadlines.gone()); err != nil {
				return nil, err
			}
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = s.decide(ctx, a)
			if s.answered != nil {
				s.answered(i, answers[i])
			}
		}()
	}
	if !s.concurrent {
		if err := s.settle(ctx); err != nil {
			return nil, err
		}
	}
	return answers, nil
}

// wait waits until due. In a streak of failed calls it asks Redis, when the
// streak would make it gone, whether it answers again: the run ends within
// the bound however far apart the attempts are.
func (s *session) wait(ctx context.Context, due time.Time) error {
	if at, ok := s.failing.giveUpAt(s.replay.Deadlines.gone()); ok && at.Before(due) {
		if err := s.probeAt(ctx, at); err != nil {
			return err
		}
	}
	return waitUntil(ctx, due)
}

// settle, after the last attempt, tells a Redis that went away from one that
// failed a few calls: a run ending in a streak of failed calls waits for the
// streak's end and asks Redis then.
func (s *session) settle(ctx context.Context) error {
	if at, ok := s.failing.giveUpAt(s.replay.Deadlines.gone()); ok {
		return s.probeAt(ctx, at)
	}
	return nil
}

// probeAt pings Redis at at: the gone error if it does not answer, else nil
// and the streak over.
func (s *session) probeAt(ctx context.Context, at time.Time) error {
	if err := waitUntil(ctx, at); err != nil {
		return err
	}
	pctx, cancel := callCtx(ctx, s.replay.Deadlines)
	err := s.rdb.Ping(pctx).Err()
	cancel()
	switch {
	case ctx.Err() != nil:
		return ctx.Err()
	case err != nil:
		s.failing.failed(time.Now(), err)
		return s.failing.gone(time.Now(), s.replay.Deadlines.gone())
	}
	s.failing.reached()
	return nil
}

// virtual is the virtual time of the real instant t.
func (s *session) virtual(t time.Time) time.Duration {
	return time.Duration(float64(t.Sub(s.start)) * s.replay.Scale)
}

func (s *session) decide(ctx context.Context, a Attempt) Answer {
	ctx, cancel := callCtx(ctx, s.replay.Deadlines)
	defer cancel()
	sentAt := time.Now()
	sent := s.virtual(sentAt)
	passed := a.At
	if s.replay.Clock == ClockDriver {
		passed = sent
	}
	key := s.replay.Prefix + a.Key
	restarted := s.checkRestart(ctx)
	args := []any{int64(passed), a.Cost, s.policy.Limit, int64(s.policy.Window), s.policy.EffectiveBurst(), s.epoch}
	res, err := s.call(ctx, key, args)
	receivedAt := time.Now()
	if errors.Is(err, context.DeadlineExceeded) {
		err = fmt.Errorf("no answer within the call's deadline of %v: %w", s.replay.Deadlines.call(), err)
	}
	ans := Answer{Sent: sent, Received: s.virtual(receivedAt), Passed: passed, Now: passed, RoundTrip: receivedAt.Sub(sentAt)}
	if s.replay.Clock == ClockServer {
		ans.Now = sent
	}
	err = s.rules.read(res, err, &ans)
	ans.Restarted = restarted && err == nil
	if err == nil {
		if !s.concurrent {
			s.failing.reached()
		}
		return ans
	}
	ans.Err = err
	if s.fail != nil {
		s.fail.decide(a, ans.Now, &ans)
	}
	if !s.concurrent {
		s.failing.failed(sentAt, err)
		s.reconnect()
	}
	return ans
}

// reconnect replaces the connection after a store error: go-redis's pool
// holds on to a failed dial for a while, and a restarted Redis should answer
// the very next call.
func (s *session) reconnect() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rdb.Close()
	if !s.closed {
		s.rdb = redis.NewClient(s.opts)
	}
	s.reconnected = true
}

// close closes the session's connections, from any goroutine: a call in
// flight fails at once.
func (s *session) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.rdb.Close()
}

// checkRestart reports, on the first call after a reconnection that reaches
// Redis, whether it is another run of the server than before.
func (s *session) checkRestart(ctx context.Context) bool {
	if !s.reconnected {
		return false
	}
	id, err := runID(ctx, s.rdb)
	if err != nil {
		return false
	}
	s.reconnected = false
	restarted := id != s.runID
	s.runID = id
	return restarted
}

// runID is the server's run_id (INFO server): new at every start.
func runID(ctx context.Context, rdb *redis.Client) (string, error) {
	info, err := rdb.Info(ctx, "server").Result()
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(info, "\n") {
		if id, ok := strings.CutPrefix(line, "run_id:"); ok {
			return strings.TrimSpace(id), nil
		}
	}
	return "", fmt.Errorf("INFO server has no run_id")
}

func (s *session) call(ctx context.Context, key string, args []any) (any, error) {
	if !s.lim.Racy() {
		return s.lim.atomic.Run(ctx, s.rdb, []string{key}, args...).Result()
	}
	state, err := s.lim.read.Run(ctx, s.rdb, []string{key}, args...).Text()
	if err != nil && !errors.Is(err, redis.Nil) {
		return nil, err
	}
	return s.lim.write.Run(ctx, s.rdb, []string{key}, append(args, state)...).Result()
}

// serverEpoch reads the server's TIME in µs, the epoch of ClockServer.
func serverEpoch(ctx context.Context, rdb *redis.Client) (string, error) {
	t, err := rdb.Time(ctx).Result()
	if err != nil {
		return "", err
	}
	return strconv.FormatInt(t.UnixMicro(), 10), nil
}

func waitUntil(ctx context.Context, due time.Time) error {
	d := time.Until(due)
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
