package conform

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rlsim/rlsim/algorithms"
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
}

// Answer is what the limiter on Redis decided for one attempt.
type Answer struct {
	// Sent is the virtual time at which the driver sent the call (real time
	// since the start × Scale).
	Sent time.Duration
	// Now is the virtual time the script decided at (its third result; Sent
	// when it returns none).
	Now        time.Duration
	Admitted   bool
	RetryAfter time.Duration // on a refusal; algorithms.Never when no wait would do
	// RoundTrip is the real time of the call (both calls of a racy limiter).
	RoundTrip time.Duration
	Err       error // the store call failed: the answer holds no decision
}

// session is one connection's replay of attempts from a common start.
type session struct {
	rdb    *redis.Client
	lim    *Limiter
	replay Replay
	policy algorithms.Policy
	start  time.Time
	epoch  string // ARGV[6]: the server clock's epoch in µs, or ""
	// concurrent sends each attempt at its time without waiting for the
	// answers before it, as a server handles requests: a replica.
	concurrent bool
}

// run sends attempts in order, each at its scheduled real time (or at once
// when late), and returns one answer per attempt.
func (s *session) run(ctx context.Context, attempts []Attempt) ([]Answer, error) {
	answers := make([]Answer, len(attempts))
	var wg sync.WaitGroup
	defer wg.Wait()
	for i, a := range attempts {
		due := s.start.Add(time.Duration(float64(a.At) / s.replay.Scale))
		if err := waitUntil(ctx, due); err != nil {
			return nil, err
		}
		if !s.concurrent {
			answers[i] = s.decide(ctx, a)
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = s.decide(ctx, a)
		}()
	}
	return answers, nil
}

func (s *session) decide(ctx context.Context, a Attempt) Answer {
	sentAt := time.Now()
	sent := time.Duration(float64(sentAt.Sub(s.start)) * s.replay.Scale)
	now := a.At
	if s.replay.Clock == ClockDriver {
		now = sent
	}
	key := s.replay.Prefix + a.Key
	args := []any{int64(now), a.Cost, s.policy.Limit, int64(s.policy.Window), s.policy.EffectiveBurst(), s.epoch}
	res, err := s.call(ctx, key, args)
	ans := Answer{Sent: sent, Now: sent, RoundTrip: time.Since(sentAt)}
	if s.replay.Clock != ClockServer {
		ans.Now = now
	}
	if err != nil {
		ans.Err = err
		return ans
	}
	ans.Err = parseResult(res, &ans)
	return ans
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

// parseResult reads {admitted, retry_after[, now]} into ans.
func parseResult(res any, ans *Answer) error {
	list, ok := res.([]any)
	if !ok || len(list) < 2 {
		return fmt.Errorf("script returned %v, want {admitted, retry_after[, now]}", res)
	}
	var n [3]int64
	for i := range min(len(list), 3) {
		v, ok := list[i].(int64)
		if !ok {
			return fmt.Errorf("script returned %v: element %d is not an integer", res, i+1)
		}
		n[i] = v
	}
	ans.Admitted = n[0] == 1
	if !ans.Admitted {
		ans.RetryAfter = time.Duration(n[1])
		if n[1] < 0 {
			ans.RetryAfter = algorithms.Never
		}
	}
	if len(list) >= 3 {
		ans.Now = time.Duration(n[2])
	}
	return nil
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
