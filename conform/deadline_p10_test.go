package conform

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/rlsim/rlsim/run"
)

// A call's context ends d.call() after it is made (bracketed by the clock read
// before and after, so no timing is assumed), not at the give-up time; every
// go-redis wait takes the call timeout and the context's deadline is honoured;
// a set-up failure is an *run.UnfinishedError naming what failed.
func TestCallDeadlines(t *testing.T) {
	for _, d := range []Deadlines{{}, {Call: 3 * time.Second, Gone: time.Hour}, {Call: time.Hour, Gone: time.Minute}} {
		before := time.Now()
		ctx, cancel := callCtx(context.Background(), d)
		after := time.Now()
		deadline, ok := ctx.Deadline()
		cancel()
		if !ok || deadline.Before(before.Add(d.call())) || deadline.After(after.Add(d.call())) {
			t.Errorf("callCtx(%+v): deadline %v after the call, want %v", d, deadline.Sub(before), d.call())
		}
	}
	o := withDeadlines(redis.Options{Addr: "x:1"}, 7*time.Second)
	for name, got := range map[string]time.Duration{"dial": o.DialTimeout, "read": o.ReadTimeout, "write": o.WriteTimeout, "pool": o.PoolTimeout} {
		if got != 7*time.Second {
			t.Errorf("withDeadlines: %s timeout %v, want 7s", name, got)
		}
	}
	if !o.ContextTimeoutEnabled || o.Addr != "x:1" || o.DialerRetryTimeout != time.Millisecond {
		t.Errorf("withDeadlines: %+v, want the context's deadline honoured, the address kept, a 1ms dial retry", o)
	}
	boom := errors.New("boom")
	err := unreachable("load scripts", boom)
	var ue *run.UnfinishedError
	if !errors.As(err, &ue) || !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "load scripts: boom") {
		t.Errorf("unreachable = %v, want an *run.UnfinishedError \"load scripts: boom; ...\"", err)
	}
}
