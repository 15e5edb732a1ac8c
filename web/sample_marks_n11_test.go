package web

import (
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// TestSampleStatusOfEveryMark: a column's sample says what its mark met: the
// refusal status and its text, 503 for a shed, the queue's delay for a
// delayed one, "dropped" (and no headers) for a throttle's drop, "passed on"
// for an admitted one; More counts the column's others of that mark. Each
// mark is found in a built-in that makes it.
func TestSampleStatusOfEveryMark(t *testing.T) {
	found := map[int]bool{}
	for _, name := range []string{"demo", "nginx-delay", "client-throttling-overload", "downstream-slowdown"} {
		sess := builtinSession(t, name)
		sess.advance(sess.sim.End())
		cfg := sess.sim.Config()
		for i := range sess.bins.Lanes() {
			ring := sess.bins.Lane(i)
			for k := ring.First(); ; k++ {
				c, ok := ring.Held(k)
				if !ok {
					break
				}
				for mark := range markKinds {
					if c.N[mark] == 0 {
						continue
					}
					smp, ok := sess.sample(i, k, mark)
					if !ok {
						t.Fatalf("%s lane %d column %d mark %d: %d held, no sample", name, i, k, mark, c.N[mark])
					}
					found[mark] = true
					var want string
					switch sim.Mark(mark) {
					case sim.MarkAdmitted:
						want = "passed on to the service"
					case sim.MarkDelayed:
						want = "held in the queue " + time.Duration(smp.Delay).String() + ", then passed on"
					case sim.MarkRefused:
						code := cfg.RefusalStatus(i)
						want = fmt.Sprintf("%d %s", code, http.StatusText(code))
					case sim.MarkShed:
						want = "503 Service Unavailable"
					case sim.MarkDropped:
						want = "dropped by the client's adaptive throttle: never sent"
					}
					if smp.Status != want || smp.More != c.N[mark]-1 || smp.Mark != sim.Mark(mark).String() {
						t.Errorf("%s lane %d column %d: %s sample status %q more %d, want %q and %d", name, i, k, smp.Mark, smp.Status, smp.More, want, c.N[mark]-1)
					}
					if sim.Mark(mark) == sim.MarkDropped && smp.Headers != "" {
						t.Errorf("%s: a dropped attempt has headers %q", name, smp.Headers)
					}
					if sim.Mark(mark) == sim.MarkDelayed && smp.Delay <= 0 {
						t.Errorf("%s: a delayed attempt with delay %d", name, smp.Delay)
					}
				}
			}
		}
	}
	for mark := range markKinds {
		if !found[mark] {
			t.Errorf("no built-in sampled mark %s", sim.Mark(mark))
		}
	}
}
