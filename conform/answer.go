package conform

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rlsim/rlsim/algorithms"
)

// answerRules are the answers the calling convention (docs/conform.md) lets a
// script give for one lane's policy: {admitted, retry_after[, now]} with
// admitted 1 or 0; retry_after 0 on an admission and, on a refusal, -1 (never)
// or a wait from 0 to maxRetry; now an instant the script can have decided at
// (see nowWithin). Anything else is not a decision and is never compared as
// one: it is an invalid answer (Answer.Invalid), unexplained.
type answerRules struct {
	clock Clock
	// tol is the comparison's tolerance: the instant decided at may stray
	// from the convention's by as much, as Retry-Afters may.
	tol time.Duration
	// slack is how far the script's instant may run ahead of the answer's
	// arrival: a real nanosecond's rounding, and on the server's clock the
	// round trip of the TIME call its epoch came from, in virtual time.
	slack    time.Duration
	maxRetry time.Duration
}

func newAnswerRules(clock Clock, scale float64, p algorithms.Policy, tol, epochSlack time.Duration) answerRules {
	slack := satAdd(epochSlack, time.Duration(math.Ceil(scale)))
	return answerRules{clock: clock, tol: tol, slack: slack, maxRetry: satAdd(maxRetryAfter(p), tol)}
}

// maxRetryAfter is at least the longest wait any lane's limit of policy p can
// ask for: two windows (a sliding window counter whose current window is
// full waits for the next, then for its weight to decay) plus the refill of
// the whole burst (a token bucket or GCRA emptied). Each lane's own bound is
// below the sum; a figure above it is nonsense, whatever the lane.
func maxRetryAfter(p algorithms.Policy) time.Duration {
	if p.Limit <= 0 || p.Window <= 0 {
		return algorithms.Never - 1
	}
	ns := 2*float64(p.Window) + math.Ceil(float64(p.EffectiveBurst())*float64(p.Window)/float64(p.Limit)) + 1
	if ns >= float64(algorithms.Never-1) {
		return algorithms.Never - 1
	}
	return time.Duration(ns)
}

func satAdd(a, b time.Duration) time.Duration {
	if a > algorithms.Never-1-b {
		return algorithms.Never - 1
	}
	return a + b
}

// nowWithin is the span the instant a script decided at must fall in, before
// the tolerance: not before the instant passed (ARGV[1]), or on the server's
// clock the send, and not after its answer came back (plus slack). A script
// may decide later than the instant passed, as the sliding log decides a
// request that reached it after a later one at that one's instant; an
// instant no call of the run had reached is made up.
func (r answerRules) nowWithin(ans *Answer) (lo, hi time.Duration) {
	if r.clock == ClockServer {
		// The script and its epoch read TIME in whole µs: a µs either way.
		return ans.Sent - time.Microsecond, satAdd(ans.Received, r.slack)
	}
	return ans.Passed, satAdd(max(ans.Passed, ans.Received), r.slack)
}

// read fills ans from a script's result and the call's error. A call that did
// not reach Redis, or that Redis refused for its own state (loading, busy,
// out of memory, ...), is a store error, returned. A result the convention
// does not allow, a nil or an error the script itself raised, is an invalid
// answer: ans.Invalid says why, and the verdict is no decision.
func (r answerRules) read(res any, err error, ans *Answer) error {
	switch {
	case errors.Is(err, redis.Nil):
		ans.Invalid = "the script returned nil, want {admitted, retry_after[, now]}"
		return nil
	case err != nil && scriptFailed(err):
		ans.Invalid = fmt.Sprintf("the script failed: %v", err)
		return nil
	case err != nil:
		return err
	}
	ans.Invalid = r.check(res, ans)
	return nil
}

// check reads res into ans and says what of it the convention does not allow,
// or "".
func (r answerRules) check(res any, ans *Answer) string {
	list, ok := res.([]any)
	if !ok || len(list) < 2 || len(list) > 3 {
		return fmt.Sprintf("the script returned %s, want {admitted, retry_after[, now]}", shape(res))
	}
	var n [3]int64
	for i, v := range list {
		x, ok := v.(int64)
		if !ok {
			return fmt.Sprintf("the script returned %s: element %d is %s, want an integer", shape(res), i+1, shape(v))
		}
		n[i] = x
	}
	admitted, retry := n[0], n[1]
	lo, hi := r.nowWithin(ans)
	// The state a script reads may have been written at any instant up to hi
	// (a call sent later that reached the store first: another replica, or a
	// late send), so its wait may run as far past the bound as hi is past lo.
	maxRetry := satAdd(r.maxRetry, max(0, hi-lo))
	var problems []string
	switch {
	case admitted != 0 && admitted != 1:
		problems = append(problems, fmt.Sprintf("admitted is %d, want 1 or 0", admitted))
	case admitted == 1 && retry != 0:
		problems = append(problems, fmt.Sprintf("retry_after is %d on an admission, want 0", retry))
	case admitted == 0 && retry != -1 && (retry < 0 || time.Duration(retry) > maxRetry):
		problems = append(problems, fmt.Sprintf("retry_after is %d, want -1 (never) or 0 to %d ns (two windows and the burst's refill from the latest instant the store can have seen, plus the tolerance)", retry, int64(maxRetry)))
	}
	ans.Admitted = admitted == 1
	ans.RetryAfter = 0
	if admitted == 0 {
		ans.RetryAfter = time.Duration(retry)
		if retry == -1 {
			ans.RetryAfter = algorithms.Never
		}
	}
	if len(list) == 3 {
		ans.Now = time.Duration(n[2])
		if ans.Now < lo-r.tol || ans.Now > satAdd(hi, r.tol) {
			problems = append(problems, fmt.Sprintf("now is %d ns, want %s", n[2], span(lo-r.tol, satAdd(hi, r.tol))))
		}
	}
	return strings.Join(problems, "; ")
}

func span(lo, hi time.Duration) string {
	return fmt.Sprintf("%d to %d ns (from the instant passed to the answer's arrival, within the tolerance)", int64(lo), int64(hi))
}

// shape names a result's type and, for a list, its length, without printing
// all of a large one.
func shape(v any) string {
	switch x := v.(type) {
	case nil:
		return "nil"
	case []any:
		if len(x) <= 4 {
			return fmt.Sprintf("a list of %d %v", len(x), x)
		}
		return fmt.Sprintf("a list of %d", len(x))
	case string:
		if len(x) > 40 {
			x = x[:40] + "…"
		}
		return fmt.Sprintf("the string %q", x)
	case int64:
		return fmt.Sprintf("the integer %d", x)
	}
	return fmt.Sprintf("a %T", v)
}

// serverStates are the error codes with which Redis refuses a call for its own
// state, not the script's: such a call is a store error.
var serverStates = []string{"LOADING", "BUSY", "MASTERDOWN", "READONLY", "OOM", "TRYAGAIN", "CLUSTERDOWN",
	"MISCONF", "NOREPLICAS", "MOVED", "ASK", "NOSCRIPT", "NOAUTH", "NOPERM", "WRONGPASS"}

// scriptFailed reports whether err is an error reply that the script raised
// (a Lua error, redis.error_reply), not one of Redis's own state.
func scriptFailed(err error) bool {
	var re redis.Error
	if !errors.As(err, &re) {
		return false
	}
	code, _, _ := strings.Cut(re.Error(), " ")
	for _, s := range serverStates {
		if code == s {
			return false
		}
	}
	return true
}
