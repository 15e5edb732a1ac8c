package algorithms

import (
	"fmt"
	"testing"
	"time"
)

const ms = time.Millisecond

// step is one request in a step table and what the limiter must answer.
type step struct {
	at      time.Duration
	cost    int64
	verdict Verdict
	retry   time.Duration // RetryAfter, checked on refusals
	delay   time.Duration // Decision.Delay, checked on the Delay verdict
}

func admit(at time.Duration) step { return step{at: at, cost: 1, verdict: Admit} }
func refuse(at, retry time.Duration) step {
	return step{at: at, cost: 1, verdict: Refuse, retry: retry}
}
func delayed(at, delay time.Duration) step {
	return step{at: at, cost: 1, verdict: Delay, delay: delay}
}

// costs is s with another cost.
func (s step) costs(n int64) step {
	s.cost = n
	return s
}

// steps concatenates its arguments, each a step or a []step.
func steps(parts ...any) []step {
	var all []step
	for _, p := range parts {
		switch p := p.(type) {
		case step:
			all = append(all, p)
		case []step:
			all = append(all, p...)
		}
	}
	return all
}

func repeat(n int, s step) []step {
	ss := make([]step, n)
	for i := range ss {
		ss[i] = s
	}
	return ss
}

func t0plus(d time.Duration) string { return fmt.Sprintf("t0+%v", d) }

// t0offset is t0plus, formatted only when printed.
type t0offset time.Duration

func (d t0offset) String() string { return t0plus(time.Duration(d)) }

// lazyf is a message formatted only when printed (%s, %v): the tests name
// every call they check, and print the name only of a call that fails.
type lazyf struct {
	format string
	args   []any
}

func lazy(format string, args ...any) lazyf { return lazyf{format, args} }

func (l lazyf) String() string { return fmt.Sprintf(l.format, l.args...) }

// must is for rules built from constant, valid policies.
func must[R any](r R, err error) R {
	if err != nil {
		panic(err)
	}
	return r
}

// runSteps walks a fresh state through the table, failing with messages like
// "Decide(t0+200ms, cost 1) = refuse, want admit".
func runSteps[S any](t *testing.T, alg Algorithm[S], table []step) {
	t.Helper()
	var s S
	for i, st := range table {
		d := alg.Decide(&s, st.at, st.cost)
		call := lazy("step %d: Decide(%s, cost %d)", i, t0offset(st.at), st.cost)
		if d.Verdict != st.verdict {
			t.Fatalf("%s = %v, want %v", call, d.Verdict, st.verdict)
		}
		if st.verdict == Refuse && d.RetryAfter != st.retry {
			t.Fatalf("%s: RetryAfter = %v, want %v", call, d.RetryAfter, st.retry)
		}
		if st.verdict != Refuse && d.RetryAfter != 0 {
			t.Fatalf("%s: RetryAfter = %v on an admission, want 0", call, d.RetryAfter)
		}
		if st.verdict == Delay && d.Delay != st.delay {
			t.Fatalf("%s: Delay = %v, want %v", call, d.Delay, st.delay)
		}
	}
}

func TestFixedWindowSteps(t *testing.T) {
	fw := must(NewFixedWindow(Policy{Limit: 3, Window: time.Second}))
	tests := []struct {
		name  string
		table []step
	}{
		{"boundary burst admits 2×limit", steps(
			repeat(3, admit(999*ms)),
			(refuse(999*ms, 1*ms)),
			repeat(3, admit(1000*ms)),
			(refuse(1000*ms, time.Second)),
		)},
		{"retry-after honoured exactly", steps(
			repeat(3, admit(0)),
			(refuse(400*ms, 600*ms)),
			(refuse(time.Second-1, 1)),
			(admit(time.Second)),
		)},
		{"idle then burst", steps(
			(admit(0)),
			repeat(3, admit(10*time.Second)),
			(refuse(10*time.Second, time.Second)),
		)},
		{"costs", steps(
			(admit(0).costs(2)),
			(refuse(0, time.Second).costs(2)),
			(admit(0)),
			(refuse(5*time.Second, Never).costs(4)),
		)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runSteps[FixedWindowState](t, fw, tt.table) })
	}
}

func TestSlidingLogSteps(t *testing.T) {
	sl := must(NewSlidingLog(Policy{Limit: 3, Window: time.Second}))
	tests := []struct {
		name  string
		table []step
	}{
		{"entries expire at exactly t+window", steps(
			admit(0), admit(100*ms), admit(200*ms),
			refuse(999*ms, 1*ms),
			refuse(time.Second-1, 1),
			admit(time.Second),
			refuse(time.Second, 100*ms),
			admit(1100*ms),
		)},
		{"no boundary burst", steps(
			repeat(3, admit(999*ms)),
			refuse(1000*ms, 999*ms),
			refuse(1999*ms-1, 1),
			repeat(3, admit(1999*ms)),
		)},
		{"idle then burst", steps(
			admit(0),
			repeat(3, admit(10*time.Second)),
			refuse(10*time.Second, time.Second),
		)},
		{"costs wait for enough entries", steps(
			admit(0).costs(2),
			refuse(500*ms, 500*ms).costs(2),
			admit(500*ms),
			admit(time.Second).costs(2),
			refuse(time.Second, 500*ms),
			refuse(time.Second, Never).costs(4),
		)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runSteps[SlidingLogState](t, sl, tt.table) })
	}
}

func TestSlidingWindowCounterSteps(t *testing.T) {
	sw := must(NewSlidingWindowCounter(Policy{Limit: 4, Window: time.Second}))
	tests := []struct {
		name  string
		table []step
	}{
		{"previous window weighs in", steps(
			repeat(4, admit(0)),
			refuse(0, 1250*ms), // at 1.25s the estimate is 4×0.75 + 0 = 3
			refuse(1250*ms-1, 1),
			admit(1250*ms),
			refuse(1250*ms, 250*ms), // 4×0.75 + 1 = 4; at 1.5s 4×0.5 + 1 = 3
			admit(1500*ms),
		)},
		{"boundary burst is damped", steps(
			repeat(4, admit(999*ms)),
			refuse(1000*ms, 250*ms),
		)},
		{"a whole idle window zeroes previous", steps(
			repeat(4, admit(0)),
			repeat(4, admit(2500*ms)),
			refuse(2500*ms, 750*ms), // next window: 4×(1−e)+1 ≤ 4 from e = 0.25
		)},
		{"costs", steps(
			admit(0).costs(3),
			refuse(0, 1333333334).costs(2), // 3×(1−e)+2 ≤ 4 from e = 1/3 of the next window
			admit(0),
			refuse(0, Never).costs(5),
		)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { runSteps[SlidingWindowCounterState](t, sw, tt.table) })
	}
}

// bucketTables are shared by TokenBucket and GCRA, which must answer alike.
func bucketTables() []struct {
	name   string
	policy Policy
	table  []step
} {
	return []struct {
		name   string
		policy Policy
		table  []step
	}{
		{"burst then refill at the exact instant", Policy{Limit: 2, Window: time.Second, Burst: 4}, steps(
			repeat(4, admit(0)),
			refuse(0, 500*ms),
			refuse(500*ms-1, 1),
			admit(500*ms),
			refuse(500*ms, 500*ms),
			refuse(500*ms, Never).costs(5),
		)},
		{"idle then burst", Policy{Limit: 2, Window: time.Second, Burst: 4}, steps(
			admit(0),
			repeat(4, admit(10*time.Second)),
			refuse(10*time.Second, 500*ms),
		)},
		{"3 per second: a token every 333333333⅓ns", Policy{Limit: 3, Window: time.Second, Burst: 1}, steps(
			admit(0),
			refuse(333333333, 1),
			admit(333333334), // the bucket was full since 333333333⅓: no credit for the ⅔ns
			refuse(666666666, 2),
			refuse(666666667, 1),
			admit(666666668),
			refuse(666666668, 333333334),
			admit(1000000002),
		)},
		{"costs", Policy{Limit: 7, Window: time.Second}, steps(
			admit(0).costs(7),
			refuse(0, 428571429).costs(3), // 3/7 s, rounded up
			refuse(428571428, 1).costs(3),
			admit(428571429).costs(3),
		)},
	}
}

func TestTokenBucketSteps(t *testing.T) {
	for _, tt := range bucketTables() {
		tb := must(NewTokenBucket(tt.policy))
		t.Run(tt.name, func(t *testing.T) { runSteps[TokenBucketState](t, tb, tt.table) })
	}
}

func TestGCRASteps(t *testing.T) {
	for _, tt := range bucketTables() {
		g := must(NewGCRA(tt.policy))
		t.Run(tt.name, func(t *testing.T) { runSteps[GCRAState](t, g, tt.table) })
	}
}

func TestLeakyBucketSteps(t *testing.T) {
	tests := []struct {
		name   string
		policy Policy
		table  []step
	}{
		{"a burst is queued, not refused", Policy{Limit: 2, Window: time.Second, Burst: 2}, steps(
			admit(0),
			delayed(0, 500*ms),
			delayed(0, time.Second),
			refuse(0, 500*ms),
			refuse(500*ms-1, 1),
			delayed(500*ms, time.Second),
			admit(10*time.Second),
		)},
		{"3 per second, release slots rounded up", Policy{Limit: 3, Window: time.Second, Burst: 1}, steps(
			admit(0),
			delayed(0, 333333334),
			refuse(0, 333333334),
			delayed(333333334, 333333333),
		)},
		{"costs use consecutive slots", Policy{Limit: 2, Window: time.Second, Burst: 2}, steps(
			admit(0).costs(3),
			refuse(0, 500*ms), // its slot would be 1.5s away; at most 1s (burst×T) may wait
			refuse(0, Never).costs(4),
			delayed(500*ms, time.Second),
			admit(2*time.Second),
		)},
	}
	for _, tt := range tests {
		lb := must(NewLeakyBucket(tt.policy))
		t.Run(tt.name, func(t *testing.T) { runSteps[LeakyBucketState](t, lb, tt.table) })
	}
}

// Time going backwards never admits more. The token bucket, fixed window, sliding
// log and sliding window counter decide a late-arriving earlier time as at the
// latest time they hold; GCRA and the leaky bucket need no special case, as an
// earlier now only sees their timestamp further away.
//
// x/time/rate's TestLimiterJumpBackwards walks the token-bucket instants below
// with NewLimiter(10, 3) and admits at t1 (step 4): its clock moved back to t0,
// so it refills the t0→t1 span a second time.
func TestTimeGoingBackwards(t *testing.T) {
	t1, t2 := 100*ms, 200*ms
	bucket := Policy{Limit: 10, Window: time.Second, Burst: 3}
	perSecond := Policy{Limit: 2, Window: time.Second}
	tests := []struct {
		name  string
		run   func(t *testing.T, table []step)
		table []step
	}{
		{"token bucket", func(t *testing.T, table []step) {
			runSteps[TokenBucketState](t, must(NewTokenBucket(bucket)), table)
		}, steps(
			admit(t1),
			admit(0), // decided as at t1
			admit(0),
			refuse(0, 200*ms), // the next token is due at t2, 200ms after t0
			refuse(t1, 100*ms),
			admit(t2),
			refuse(t2, 100*ms),
		)},
		{"gcra", func(t *testing.T, table []step) {
			runSteps[GCRAState](t, must(NewGCRA(bucket)), table)
		}, steps(
			admit(t1), // TAT t2
			admit(0),  // TAT 300ms: 300ms ahead of t0, the most allowed
			refuse(0, 100*ms),
			admit(t1),
			refuse(t1, 100*ms),
		)},
		{"fixed window", func(t *testing.T, table []step) {
			runSteps[FixedWindowState](t, must(NewFixedWindow(perSecond)), table)
		}, steps(
			admit(1500*ms),
			admit(500*ms), // counted in the window of 1.5s
			refuse(500*ms, 1500*ms),
			admit(2*time.Second),
		)},
		{"sliding log", func(t *testing.T, table []step) {
			runSteps[SlidingLogState](t, must(NewSlidingLog(perSecond)), table)
		}, steps(
			admit(time.Second),
			admit(0), // logged at 1s
			refuse(0, 2*time.Second),
			admit(2*time.Second),
		)},
		{"sliding window counter", func(t *testing.T, table []step) {
			runSteps[SlidingWindowCounterState](t, must(NewSlidingWindowCounter(perSecond)), table)
		}, steps(
			admit(1500*ms),
			admit(500*ms), // counted in the window of 1.5s
			refuse(500*ms, 2*time.Second),
			refuse(2499*ms, 1*ms),
			admit(2500*ms),
		)},
		{"leaky bucket", func(t *testing.T, table []step) {
			runSteps[LeakyBucketState](t, must(NewLeakyBucket(Policy{Limit: 2, Window: time.Second, Burst: 1})), table)
		}, steps(
			admit(time.Second), // next slot 1.5s
			refuse(0, time.Second),
			delayed(time.Second, 500*ms),
		)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.run(t, tt.table) })
	}
}
