package conform

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/sim"
)

// testPolicy is mixed.yaml's limit: 7 per second, burst 5. The longest wait
// any lane can ask for is two windows and the burst's refill: 2s + 5/7s.
var testPolicy = algorithms.Policy{Limit: 7, Window: time.Second, Burst: 5}

// TestReadAnswerHoldsTheConvention reads results as Redis hands them to the
// driver: each the calling convention does not allow is invalid, saying why;
// each it allows is read as the decision it is.
func TestReadAnswerHoldsTheConvention(t *testing.T) {
	const tol = 10 * ms
	r := newAnswerRules(ClockScheduled, 1, testPolicy, tol, 0)
	// The state may have been written at any instant up to the answer's
	// arrival (1.2s, plus the scale's 1 ns), 200ms after the instant passed
	// (1s): a later call that reached the store first, as in a race.
	maxRetry := int64(maxRetryAfter(testPolicy) + tol + 200*ms + 1)
	ans := func() Answer {
		return Answer{Sent: 1100 * ms, Received: 1200 * ms, Passed: time.Second, Now: time.Second}
	}
	tests := []struct {
		name     string
		res      any
		err      error
		invalid  string // in Answer.Invalid; "" for a valid answer
		storeErr bool
		want     Answer
	}{
		{name: "admitted", res: []any{int64(1), int64(0)}, want: Answer{Admitted: true, Now: time.Second}},
		{name: "admitted, now passed", res: []any{int64(1), int64(0), int64(time.Second)}, want: Answer{Admitted: true, Now: time.Second}},
		{name: "refused, never", res: []any{int64(0), int64(-1)}, want: Answer{RetryAfter: algorithms.Never, Now: time.Second}},
		{name: "refused, longest wait", res: []any{int64(0), maxRetry}, want: Answer{RetryAfter: time.Duration(maxRetry), Now: time.Second}},
		{name: "decided at the answer's arrival", res: []any{int64(1), int64(0), int64(1200*ms + 1 + tol)}, want: Answer{Admitted: true, Now: 1200*ms + 1 + tol}},
		{name: "decided within tolerance before", res: []any{int64(1), int64(0), int64(time.Second - tol)}, want: Answer{Admitted: true, Now: time.Second - tol}},
		{name: "no list", res: int64(1), invalid: "the script returned the integer 1, want {admitted, retry_after[, now]}"},
		{name: "a string", res: "OK", invalid: `the script returned the string "OK"`},
		{name: "one element", res: []any{int64(1)}, invalid: "the script returned a list of 1 [1]"},
		{name: "four elements", res: []any{int64(1), int64(0), int64(0), int64(3)}, invalid: "a list of 4"},
		{name: "a long list", res: make([]any, 100), invalid: "the script returned a list of 100, want"},
		{name: "a string element", res: []any{"1", int64(0)}, invalid: `element 1 is the string "1", want an integer`},
		{name: "a nil element", res: []any{int64(1), nil}, invalid: "element 2 is nil, want an integer"},
		{name: "a nested list", res: []any{int64(1), []any{int64(0)}}, invalid: "element 2 is a list of 1"},
		{name: "nil", err: redis.Nil, invalid: "the script returned nil"},
		{name: "the script raised", err: proto("ERR user_script:1: boom"), invalid: "the script failed: ERR user_script:1: boom"},
		{name: "admitted 2", res: []any{int64(2), int64(0)}, invalid: "admitted is 2, want 1 or 0"},
		{name: "admitted -1", res: []any{int64(-1), int64(0)}, invalid: "admitted is -1, want 1 or 0"},
		{name: "a wait on an admission", res: []any{int64(1), int64(5)}, invalid: "retry_after is 5 on an admission, want 0"},
		{name: "a negative wait", res: []any{int64(0), int64(-2)}, invalid: "retry_after is -2, want -1 (never) or 0 to "},
		{name: "the least int64 wait", res: []any{int64(0), int64(math.MinInt64)}, invalid: "retry_after is -9223372036854775808"},
		{name: "a wait past the bound", res: []any{int64(0), maxRetry + 1}, invalid: fmt.Sprintf("retry_after is %d, want -1 (never) or 0 to %d ns", maxRetry+1, maxRetry)},
		{name: "a huge wait", res: []any{int64(0), int64(math.MaxInt64)}, invalid: "retry_after is 9223372036854775807"},
		{name: "decided before the instant passed", res: []any{int64(1), int64(0), int64(time.Second - tol - 1)}, invalid: "now is 989999999 ns, want 990000000 to 1210000001 ns"},
		{name: "decided after the answer came", res: []any{int64(1), int64(0), int64(1200*ms + 2 + tol)}, invalid: "now is 1210000002 ns"},
		{name: "decided at a negative instant", res: []any{int64(0), int64(-1), int64(math.MinInt64)}, invalid: "now is -9223372036854775808 ns"},
		{name: "every field wrong", res: []any{int64(7), int64(0), int64(math.MaxInt64)}, invalid: "admitted is 7, want 1 or 0; now is 9223372036854775807 ns"},
		{name: "connection refused", err: errors.New("dial tcp: connection refused"), storeErr: true},
		{name: "redis loading", err: proto("LOADING Redis is loading the dataset in memory"), storeErr: true},
		{name: "redis out of memory", err: proto("OOM command not allowed"), storeErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ans()
			err := r.read(tt.res, tt.err, &got)
			switch {
			case tt.storeErr:
				if err == nil {
					t.Errorf("read(%v, %v) = no store error, want one", tt.res, tt.err)
				}
			case err != nil:
				t.Errorf("read(%v, %v) = store error %v, want none", tt.res, tt.err, err)
			case tt.invalid == "" && got.Invalid != "":
				t.Errorf("read(%v) invalid: %s", tt.res, got.Invalid)
			case tt.invalid == "" && (got.Admitted != tt.want.Admitted || got.RetryAfter != tt.want.RetryAfter || got.Now != tt.want.Now):
				t.Errorf("read(%v) = admitted %v, retry %v, now %v; want %v, %v, %v", tt.res, got.Admitted, got.RetryAfter, got.Now,
					tt.want.Admitted, tt.want.RetryAfter, tt.want.Now)
			case !strings.Contains(got.Invalid, tt.invalid):
				t.Errorf("read(%v, %v): invalid %q, want it to say %q", tt.res, tt.err, got.Invalid, tt.invalid)
			}
		})
	}
}

// proto is an error reply as go-redis hands it over.
type proto string

func (p proto) Error() string { return string(p) }
func (proto) RedisError()     {}

// TestServerClockAllowsTheEpochsSlack: on the server's clock a script decides
// from the send (less a µs: TIME's whole microseconds) to the answer's
// arrival, and may run ahead by the round trip of the TIME call its epoch
// came from.
func TestServerClockAllowsTheEpochsSlack(t *testing.T) {
	r := newAnswerRules(ClockServer, 1, testPolicy, 0, 2*ms)
	for _, tc := range []struct {
		now   time.Duration
		valid bool
	}{{100 * ms, true}, {100*ms - time.Microsecond, true}, {100*ms - time.Microsecond - 1, false}, {112 * ms, true}, {112*ms + 2, false}} {
		a := Answer{Sent: 100 * ms, Received: 110 * ms, Passed: 40 * ms}
		if err := r.read([]any{int64(1), int64(0), int64(tc.now)}, nil, &a); err != nil || (a.Invalid == "") != tc.valid {
			t.Errorf("server clock, sent 100ms, back 110ms, slack 2ms: now %v: invalid %q, want valid %v", tc.now, a.Invalid, tc.valid)
		}
	}
}

// answerFromBytes makes a script's result from fuzz input: its shape, then
// admitted, retry_after and now from the full range of int64, or near the
// bounds, so that both sides of each are met.
func answerFromBytes(b []byte, bound, lo, hi int64) any {
	next := func() int64 {
		if len(b) < 9 {
			b = nil
			return 0
		}
		v := int64(binary.LittleEndian.Uint64(b[1:9]))
		kind := b[0]
		b = b[9:]
		switch kind % 6 {
		case 0:
			return v // anything
		case 1:
			return v % 3 // -2..2
		case 2:
			return bound + v%3 // about the retry bound
		case 3:
			return lo + v%3 // about the span's start
		case 4:
			return hi + v%3 // about its end
		}
		return v % (2 * int64(time.Hour))
	}
	if len(b) == 0 {
		return nil
	}
	shape := b[0]
	b = b[1:]
	switch shape % 8 {
	case 0:
		return []any{next(), next()}
	case 1, 2, 3:
		return []any{next(), next(), next()}
	case 4:
		return []any{next()}
	case 5:
		return []any{next(), fmt.Sprint(next()), next()}
	case 6:
		return next()
	}
	return []any{next(), next(), next(), next()}
}

// conventionAllows restates the calling convention for a result: the oracle
// the fuzz target holds read to.
func conventionAllows(res any, maxRetry, lo, hi int64) bool {
	list, ok := res.([]any)
	if !ok || len(list) < 2 || len(list) > 3 {
		return false
	}
	var n []int64
	for _, v := range list {
		x, ok := v.(int64)
		if !ok {
			return false
		}
		n = append(n, x)
	}
	switch {
	case n[0] == 1 && n[1] != 0,
		n[0] == 0 && n[1] != -1 && (n[1] < 0 || n[1] > maxRetry),
		n[0] != 0 && n[0] != 1:
		return false
	}
	return len(n) == 2 || (n[2] >= lo && n[2] <= hi)
}

// FuzzScriptAnswers feeds a lane's tally with answers of random and absurd
// shapes and values, as a script could return them: each the convention does
// not allow is counted invalid and unexplained, never agreed, never
// explained by the clock, and never feeds the exact algorithm; each it
// allows is compared. Nothing panics.
func FuzzScriptAnswers(f *testing.F) {
	f.Add([]byte{1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0}, uint8(0), int64(0))
	f.Add([]byte{1, 3, 1, 0, 0, 0, 0, 0, 0, 0, 2, 255, 255, 255, 255, 255, 255, 255, 127, 0, 0x40, 0, 0, 0, 0, 0, 0, 0, 0x10}, uint8(1), int64(50*ms))
	f.Add([]byte{7, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80}, uint8(2), int64(ms))
	f.Add([]byte{2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 4, 2, 0, 0, 0, 0, 0, 0, 0, 0}, uint8(0), int64(0))
	f.Fuzz(func(t *testing.T, data []byte, clock uint8, tol int64) {
		tolerance := time.Duration(tol % int64(testPolicy.Window))
		if tolerance < 0 {
			tolerance = -tolerance
		}
		c := Clock(clock % 3)
		r := newAnswerRules(c, 10, testPolicy, tolerance, 0)
		tw, err := newTwin(sim.LaneTokenBucket, testPolicy)
		if err != nil {
			t.Fatal(err)
		}
		var attempts []Attempt
		var answers []Answer
		var allowed []bool
		for i := 0; len(data) > 0 && i < 16; i++ {
			at := time.Duration(i) * 50 * ms
			a := Attempt{At: at, Key: "k", Cost: 1, Admitted: data[0]%2 == 0, RetryAfter: time.Duration(data[0]) * ms}
			ans := Answer{Sent: at + ms, Received: at + 3*ms, Passed: at, Now: at}
			if c == ClockDriver {
				ans.Passed, ans.Now = ans.Sent, ans.Sent
			}
			if c == ClockServer {
				ans.Now = ans.Sent
			}
			lo, hi := r.nowWithin(&ans)
			lo, hi = lo-tolerance, hi+tolerance
			n := min(len(data), 1+3*9)
			res := answerFromBytes(data[:n], int64(r.maxRetry), int64(lo), int64(hi))
			data = data[n:]
			if err := r.read(res, nil, &ans); err != nil {
				t.Fatalf("read(%v) = store error %v: a result is never one", res, err)
			}
			allows := conventionAllows(res, int64(r.maxRetry), int64(lo), int64(hi))
			if allows != (ans.Invalid == "") {
				t.Fatalf("read(%v) on the %s clock, tolerance %v, span [%d, %d], retry bound %d: invalid %q, want invalid %v",
					res, c, tolerance, lo, hi, r.maxRetry, ans.Invalid, !allows)
			}
			attempts, answers, allowed = append(attempts, a), append(answers, ans), append(allowed, allows)
		}
		counted, diffs := tally(tw, attempts, answers, tolerance, len(attempts))
		invalid := 0
		for _, ok := range allowed {
			if !ok {
				invalid++
			}
		}
		if counted.Invalid != invalid || counted.Unexplained < invalid ||
			counted.Agreed+counted.DifferedWithin+counted.Differed+counted.RetryAfterDiffered+counted.StoreErrors+counted.Invalid != len(attempts) {
			t.Fatalf("%d answers outside the convention; tally %+v", invalid, counted)
		}
		for _, d := range diffs {
			if d.Answer.Invalid != "" && (d.Explained || d.Outcome != Invalid) {
				t.Fatalf("an invalid answer shown %v, explained %v: %+v", d.Outcome, d.Explained, d)
			}
		}
		if invalid > 0 && counted.RealAdmitted+invalid > len(attempts) {
			t.Fatalf("redis admitted %d of %d valid answers", counted.RealAdmitted, len(attempts)-invalid)
		}
	})
}

// TestAbsurdScriptIsUnexplained checks, on a real Redis, testdata/absurd.lua:
// it admits every request and says it decided at 2^20 times the instant
// passed, so that the exact algorithm fed those instants admits all too.
// Every answer is outside the convention and unexplained, on every clock
// (conform once counted them explained by the clock, and exited 0).
func TestAbsurdScriptIsUnexplained(t *testing.T) {
	opts := needRedis(t)
	src, err := os.ReadFile("testdata/absurd.lua")
	if err != nil {
		t.Fatal(err)
	}
	traffic, err := Traffic(context.Background(), *loadConfig(t, "testdata/mixed.yaml"), []sim.LaneKind{sim.LaneTokenBucket}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, clock := range []Clock{ClockScheduled, ClockDriver} {
		checks, err := Check(context.Background(), opts, traffic, CheckOptions{
			Replay: Replay{Clock: clock, Scale: 200, Prefix: prefix(t, clock)}, Tolerance: 50 * ms, Shown: 2,
			Script: NewAtomic("absurd.lua", string(src)),
		})
		if err != nil {
			t.Fatal(err)
		}
		c := checks[0]
		if c.Invalid != c.Attempts || c.Unexplained != c.Attempts || c.Agreed != 0 || c.RealAdmitted != 0 ||
			!strings.Contains(c.InvalidReason, "now is ") || len(c.Diffs) != 2 || c.Diffs[0].Explained {
			t.Errorf("clock %s: %+v, diffs %+v; want every one of %d answers invalid and unexplained", clock, c.Tally, c.Diffs, c.Attempts)
		}
	}
}

// TestMalformedAnswersAreInvalid runs scripts that answer in the wrong shape,
// with the wrong types, out of bounds, or raise an error, on a real Redis:
// each answer is an invalid one that says why, none a store error, and the
// run goes on to the last attempt.
func TestMalformedAnswersAreInvalid(t *testing.T) {
	opts := needRedis(t)
	traffic, err := Traffic(context.Background(), *loadConfig(t, "testdata/mixed.yaml"), []sim.LaneKind{sim.LaneGCRA}, 0)
	if err != nil {
		t.Fatal(err)
	}
	traffic[0].Attempts = traffic[0].Attempts[:12]
	tests := []struct{ script, want string }{
		{"return 1", "the script returned the integer 1, want {admitted, retry_after[, now]}"},
		{"return 'yes'", `the script returned the string "yes"`},
		{"return {}", "the script returned a list of 0 []"},
		{"return {1}", "the script returned a list of 1 [1]"},
		{"return {1, 0, tonumber(ARGV[1]), 5}", "the script returned a list of 4"},
		{"return {'1', 0}", `element 1 is the string "1", want an integer`},
		{"return {1, {0}}", "element 2 is a list of 1 [0]"},
		{"return nil", "the script returned nil"},
		{"return {2, 0}", "admitted is 2, want 1 or 0"},
		{"return {1, 250}", "retry_after is 250 on an admission, want 0"},
		{"return {0, -2}", "retry_after is -2, want -1 (never) or 0 to "},
		{"return {0, 1e18}", "retry_after is 1000000000000000000"},
		{"return {0, math.huge}", "retry_after is "},
		{"return {1, 0, -1}", "now is -1 ns"},
		{"return {1, 0, 0/0}", "now is "},
		{"return redis.error_reply('my limiter broke')", "the script failed: my limiter broke"},
		{"error('boom')", "the script failed: "},
		{"return {1, 0, tonumber(ARGV[1]) + ARGV[99]}", "the script failed: "},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			checks, err := Check(context.Background(), opts, traffic, CheckOptions{
				Replay: Replay{Clock: ClockScheduled, Scale: 200, Prefix: prefix(t)}, Shown: 1,
				Script: NewAtomic("bad.lua", tt.script),
			})
			if err != nil {
				t.Fatal(err)
			}
			c := checks[0]
			if c.Invalid != c.Attempts || c.Unexplained != c.Attempts || c.StoreErrors != 0 ||
				!strings.Contains(c.InvalidReason, tt.want) || len(c.Diffs) != 1 || c.Diffs[0].Outcome != Invalid {
				t.Errorf("%+v; want all %d answers invalid, none a store error, the reason saying %q", c.Tally, c.Attempts, tt.want)
			}
		})
	}
}

// TestAScriptRedisCannotLoadIsBadInput: a script that does not compile is the
// input's fault, told as such before any attempt is sent.
func TestAScriptRedisCannotLoadIsBadInput(t *testing.T) {
	opts := needRedis(t)
	traffic, err := Traffic(context.Background(), *loadConfig(t, "testdata/mixed.yaml"), []sim.LaneKind{sim.LaneGCRA}, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Check(context.Background(), opts, traffic, CheckOptions{
		Replay: Replay{Clock: ClockScheduled, Scale: 200, Prefix: prefix(t)},
		Script: NewAtomic("broken.lua", "return {1, 0"),
	})
	var ie *run.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "script broken.lua: redis cannot load it: ") {
		t.Errorf("Check = %v; want bad input naming the script", err)
	}
}
