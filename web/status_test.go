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

// The playground names each lane as the table does: a variant by its own
// name, so that nginx-delay's three nginx lanes (and choose-burst's three
// token buckets) are told apart, and each can be hidden alone.
func TestLanesNamedAsVariants(t *testing.T) {
	for _, tc := range []struct {
		scenario string
		want     []string
	}{{"nginx-delay", []string{"burst-12", "delay-8", "nodelay"}}, {"choose-burst", []string{"burst_5", "burst_20", "burst_100"}},
		{"demo", []string{"fixed_window", "sliding_log", "sliding_window_counter", "token_bucket", "leaky_bucket", "gcra", "aimd", "client_throttle"}}} {
		rep := describe(builtinSession(t, tc.scenario))
		var names, titles []string
		for _, l := range rep.Lanes {
			names, titles = append(names, l.Name), append(titles, l.Title)
		}
		if strings.Join(names, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: lanes %v, want %v", tc.scenario, names, tc.want)
		}
		if tc.scenario != "demo" && strings.Join(titles, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: titles %v, want the variants' names %v", tc.scenario, titles, tc.want)
		}
	}
}
