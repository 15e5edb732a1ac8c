package web

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// A refused attempt's sample gives the status its lane refuses with: nginx's
// limit_req answers 503 by default, not 429.
func TestRefusedSampleStatusIsTheLanes(t *testing.T) {
	sess := builtinSession(t, "nginx-delay")
	sess.advance(11 * time.Second) // past the first page loads, whose columns the rings still hold
	for i := range sess.sim.Config().Lanes {
		found := false
		for k := int64(0); k < 1<<16 && !found; k++ {
			smp, ok := sess.sample(i, k, int(sim.MarkRefused))
			if !ok {
				continue
			}
			found = true
			if !strings.HasPrefix(smp.Status, "503 Service Unavailable") {
				t.Errorf("lane %d: a refused attempt's status %q, want 503 Service Unavailable", i, smp.Status)
			}
		}
		if !found {
			t.Errorf("lane %d: no refused attempt to sample", i)
		}
	}
}
