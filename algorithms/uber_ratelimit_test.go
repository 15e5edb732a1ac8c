package algorithms

import (
	"math/rand/v2"
	"testing"
	"time"

	"go.uber.org/ratelimit"
)

// uberClock is go.uber.org/ratelimit's clock at the instant a test sets:
// Sleep does not move it, since every Take stands for a caller of its own
// (open loop, as rlsim's clients).
type uberClock struct{ now time.Time }

func (c *uberClock) Now() time.Time        { return c.now }
func (c *uberClock) Sleep(d time.Duration) {}

// go.uber.org/ratelimit v0.3.1 (limiter_atomic_int64.go, the default New) is
// a GCRA that waits instead of refusing: Take at now issues the permission at
// max(previous + T, now − slack×T), T = per/rate, and sleeps until it. That is
// rlsim's GCRA of one request per T with burst slack+1, a new key starting
// with one token (the first Take issues at now and leaves the bucket empty),
// never forgetting a key, and every request waiting its turn however long
// (WithWait(Never)): the same wait for every Take on arbitrary arrivals.
// The one difference allowed: uber truncates T to whole nanoseconds
// (per/time.Duration(rate)); the cases take per a whole multiple of rate.
func TestGCRAWithWaitIsUberRatelimit(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 26))
	base := time.Unix(1_700_000_000, 0) // uber's state 0 means "no Take yet": keep clear of it
	for c := range 400 {
		rate := 1 + rnd.IntN(1000)
		per := time.Duration(rate) * time.Duration(1+rnd.IntN(5_000_000)) // T = per/rate whole ns
		slack := rnd.IntN(20)
		T := per / time.Duration(rate)
		clock := &uberClock{now: base}
		uber := ratelimit.New(rate, ratelimit.Per(per), ratelimit.WithSlack(slack), ratelimit.WithClock(clock))
		g := must(NewGCRA(Policy{Limit: 1, Window: T, Burst: int64(slack + 1)}))
		start := must(StartAt[GCRAState](g, 1, Never))
		rule := must(WithWait[GCRAState](start, Never))
		var s GCRAState
		var now time.Duration
		for k := range 200 {
			switch rnd.IntN(4) {
			case 0: // together
			case 1:
				now += time.Duration(rnd.Int64N(int64(T)))
			case 2:
				now += T
			default:
				now += time.Duration(rnd.Int64N(int64(T) * int64(slack+3)))
			}
			clock.now = base.Add(now)
			issued := uber.Take()
			want := max(issued.Sub(clock.now), 0)
			d := rule.Decide(&s, now, 1)
			got := time.Duration(0)
			if d.Verdict == Delay {
				got = d.Delay
			}
			if d.Verdict == Refuse || got != want {
				t.Fatalf("case %d (rate %d per %v, slack %d), Take %d at %v: uber waits %v, rlsim %v %v", c, rate, per, slack, k, now, want, d.Verdict, got)
			}
		}
	}
}
