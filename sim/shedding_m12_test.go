package sim

import (
	"fmt"
	"testing"
	"time"
)

// The utilisation shedder, by UtilisationShedding's doc comment: overload
// sheds sheddable at once, then one criticality more after each further
// Escalate of overload (zero: 1s), never critical_plus; overload ending ends
// it, and the next overload starts again from one. Each stretch of overload
// is held to that count from its own first instant, including one that begins
// at t = 0, at and beside each Escalate edge.
func TestUtilisationLevelEscalatesFromTheOverloadsStart(t *testing.T) {
	for _, escalate := range []time.Duration{0, 300 * time.Millisecond, time.Second} {
		for _, start := range []time.Duration{0, 1, 700 * time.Millisecond} {
			t.Run(fmt.Sprintf("escalate %v from %v", escalate, start), func(t *testing.T) {
				step := escalate
				if step == 0 {
					step = time.Second
				}
				u := &UtilisationShedding{Threshold: 0.75, Escalate: escalate}
				l := &lane{backend: &backend{capacity: 4}}
				s := &shedders{since: -1}
				want := func(now, from time.Duration) int {
					return min(len(criticalities)-1, 1+int((now-from)/step))
				}
				// Overloaded (3 of 4 busy, at the threshold) from start on.
				l.backend.busy = 3
				var at []time.Duration
				for k := range time.Duration(5) {
					at = append(at, start+k*step-1, start+k*step, start+k*step+1)
				}
				for _, now := range at {
					if now < start {
						continue
					}
					if got := s.utilisationLevel(l, u, now); got != want(now, start) {
						t.Fatalf("overloaded since %v, at %v: level %d, want %d", start, now, got, want(now, start))
					}
				}
				// Below the threshold: nothing shed; overloaded again: one again.
				end := start + 5*step
				l.backend.busy = 2
				if got := s.utilisationLevel(l, u, end); got != 0 {
					t.Fatalf("2 of 4 busy at %v: level %d, want 0", end, got)
				}
				l.backend.busy = 4
				again := end + step/2
				for _, now := range []time.Duration{again, again + step - 1, again + step, again + 3*step} {
					if got := s.utilisationLevel(l, u, now); got != want(now, again) {
						t.Fatalf("overloaded again since %v, at %v: level %d, want %d", again, now, got, want(now, again))
					}
				}
			})
		}
	}
}
