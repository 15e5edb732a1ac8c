package web

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestAdvanceStopsAtTheEndAndTheBudget: advance runs d further and no past
// the end; at the end the status names the command that prints the same
// figures (or, after a change, says it plays without them); a run over the
// server's event budget stops, saying the budget.
func TestAdvanceStopsAtTheEndAndTheBudget(t *testing.T) {
	sess := builtinSession(t, "demo")
	sess.playing = true
	sess.advance(time.Second)
	if got := sess.sim.Now(); got != time.Second || sess.finished || !sess.playing {
		t.Fatalf("advance(1s): now %v finished %v playing %v, want 1s, neither finished nor stopped", got, sess.finished, sess.playing)
	}
	sess.advance(2 * sess.sim.End())
	if sess.sim.Now() > sess.sim.End() || !sess.finished || sess.playing {
		t.Fatalf("past the end: now %v of %v, finished %v playing %v", sess.sim.Now(), sess.sim.End(), sess.finished, sess.playing)
	}
	if want := "finished: these are the figures rlsim run demo prints"; sess.status != want {
		t.Errorf("status %q, want %q", sess.status, want)
	}
	now := sess.sim.Now()
	sess.advance(time.Second)
	if sess.sim.Now() != now {
		t.Errorf("a finished session advanced to %v", sess.sim.Now())
	}

	touched := builtinSession(t, "demo")
	touched.touched = true
	touched.advance(touched.sim.End())
	if want := "finished, with the changes made here: rlsim run demo plays it without them"; touched.status != want {
		t.Errorf("status after a change %q, want %q", touched.status, want)
	}

	srv := New(Options{Addr: "127.0.0.1:1"})
	sc, err := srv.load(createRequest{Builtin: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	small, err := newSession(context.Background(), sc, 200, "rlsim run demo")
	if err != nil {
		t.Fatal(err)
	}
	small.playing = true
	small.advance(small.sim.End())
	if !small.finished || small.playing || !strings.HasPrefix(small.status, "stopped: ") ||
		!strings.HasSuffix(small.status, "; the server's budget is --max-events 200") {
		t.Errorf("over the budget: finished %v playing %v status %q", small.finished, small.playing, small.status)
	}
}
