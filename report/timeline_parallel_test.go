package report

import (
	"context"
	"reflect"
	"runtime"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// TestTimelineFilledByLanesAtOnce fills a Timeline from runs whose lanes go one
// after the other (GOMAXPROCS 1, Record) and at once (GOMAXPROCS 4, through
// ForLanes' sinks) and wants the same timeline.
func TestTimelineFilledByLanesAtOnce(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, name := range []string{"demo", "boundary-burst", "downstream-slowdown", "multi-replica-trap"} {
		t.Run(name, func(t *testing.T) {
			s, err := scenarios.LoadBuiltin(name)
			if err != nil {
				t.Fatal(err)
			}
			fill := func(procs int) *Timeline {
				runtime.GOMAXPROCS(procs)
				tl := NewTimeline(*s.Config)
				if _, err := sim.Run(context.Background(), *s.Config, sim.Options{Trace: tl}); err != nil {
					t.Fatal(err)
				}
				return tl
			}
			seq, par := fill(1), fill(4)
			if !reflect.DeepEqual(seq, par) {
				t.Errorf("the timeline filled by lanes at once differs from one filled lane after lane")
			}
			if seq.Last() <= 0 {
				t.Errorf("Last() = %v: nothing recorded", seq.Last())
			}
		})
	}
}
