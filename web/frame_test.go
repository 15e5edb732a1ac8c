package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

func builtinSession(t *testing.T, name string) *session {
	t.Helper()
	srv := New(Options{Addr: "127.0.0.1:1"})
	sc, err := srv.load(createRequest{Builtin: name})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := newSession(context.Background(), sc, 0, "rlsim run "+sc.Name)
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

// A concurrency lane is not painted over against a rate it does not enforce:
// the demo with a burst fired once showed AIMD "30 / 10 most in any window" in red while rlsim
// run's table says "not limiting" and its findings hold nothing against it.
func TestConcurrencyLaneIsNotOverTheRate(t *testing.T) {
	sess := builtinSession(t, "demo")
	sess.advance(2 * time.Second)
	if _, err := sess.apply(command{Op: "burst", Count: 300, Spread: int64(100 * time.Millisecond)}); err != nil {
		t.Fatal(err)
	}
	f := playToEnd(t, sess)
	seen := false
	for i, l := range f.Lanes {
		if sess.sim.Snapshot()[i].Lane.Info().Class != sim.ConcurrencyLimiter {
			continue
		}
		seen = true
		if l.NotLimiting {
			t.Fatalf("lane %d limited nothing even with a burst: the test needs it limiting", i)
		}
		if l.Over || !l.Concurrency {
			t.Errorf("lane %d: %d / %d most in any window: over %v, concurrency %v; want over false, concurrency true",
				i, l.Peak.Count, l.Peak.Limit, l.Over, l.Concurrency)
		}
	}
	if !seen {
		t.Fatal("the demo has no concurrency lane")
	}
}

// After a live rule change each window is judged against the limit in force
// during it: doubling the limit at the start does not turn the sliding log,
// which holds whatever limit it is given, over.
func TestRaisedLimitIsNotOver(t *testing.T) {
	sess := builtinSession(t, "demo")
	p := sess.sim.Rule(0).Policy
	if _, err := sess.apply(command{Op: "rule", Limit: 2 * p.Limit, Window: int64(p.Window), Burst: 2 * p.EffectiveBurst()}); err != nil {
		t.Fatal(err)
	}
	f := playToEnd(t, sess)
	for i, snap := range sess.sim.Snapshot() {
		if snap.Lane != sim.LaneSlidingLog {
			continue
		}
		l := f.Lanes[i]
		if l.Over || l.Peak.Limit != 2*p.Limit {
			t.Errorf("sliding log: %d in its busiest window, judged against %d (over %v); want against %d, not over",
				l.Peak.Count, l.Peak.Limit, l.Over, 2*p.Limit)
		}
		return
	}
	t.Fatal("the demo has no sliding log lane")
}

// Times in the status line print as the page and the TUI print them, to the
// millisecond: t=4.433s, never t=4.433333289s.
func TestStatusTimesToTheMillisecond(t *testing.T) {
	sess := builtinSession(t, "demo")
	sess.advance(4433333289 * time.Nanosecond)
	now := sess.sim.Now()
	if now%time.Millisecond == 0 {
		t.Fatalf("the session stopped at %v, a whole millisecond: the test needs a finer instant", now)
	}
	if _, err := sess.apply(command{Op: "burst", Count: 5}); err != nil {
		t.Fatal(err)
	}
	if want := "fired at t=" + now.Round(time.Millisecond).String() + " "; !strings.Contains(sess.status, want) {
		t.Errorf("status %q, want it to say %q", sess.status, want)
	}
	for _, tc := range []struct {
		d    time.Duration
		want string
	}{{0, "0s"}, {4433333289, "4.433s"}, {1500 * time.Microsecond, "2ms"}, {90 * time.Second, "1m30s"}} {
		if got := instant(tc.d); got != tc.want {
			t.Errorf("instant(%v) = %q, want %q", tc.d, got, tc.want)
		}
	}
}
