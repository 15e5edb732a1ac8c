package report

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// usesLimitingLayer reports whether c uses a concurrency limit, a
// criticality other than critical, a load shedder, partitions, a Gradient2
// lane or its settings, CoDel or LIFO, a round trip, a deadline, a retry
// budget or a service factor: what issue 29 added.
func usesLimitingLayer(c *sim.Config) bool {
	for _, l := range c.Limits {
		if l.Concurrency > 0 {
			return true
		}
	}
	for _, g := range c.Clients {
		if g.Criticality != sim.Critical || g.RTT > 0 || g.Deadline > 0 || g.Retry.Budget != nil || g.ServiceFactor != 0 {
			return true
		}
	}
	if b := c.Backend; b != nil && (b.Shedding != nil || b.CoDel != nil || b.Discipline == sim.QueueLIFO) {
		return true
	}
	return len(c.ConcurrencyPartitions) > 0 || slices.Contains(c.Lanes, sim.LaneGradient2) || c.Gradient2 != (sim.Gradient2Settings{})
}

// Every built-in that uses what issue 29 added (with its Gradient2 lane
// when it only sets one up) gives byte-identical JSON and
// tables in two runs, and processes within 2× of the events its estimate
// says; the four that carry the issue's arguments are among them.
func TestIssue29BuiltinsDeterministicAndEstimated(t *testing.T) {
	var ran []string
	for _, b := range scenarios.Builtins() {
		s, err := scenarios.LoadBuiltin(b.Name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Config == nil || !usesLimitingLayer(s.Config) {
			continue
		}
		ran = append(ran, b.Name)
		if c := s.Config; c.Gradient2 != (sim.Gradient2Settings{}) && !slices.Contains(c.Lanes, sim.LaneGradient2) {
			lanes := c.Lanes
			if len(lanes) == 0 {
				lanes = sim.DefaultLanes()
			}
			c.Lanes = append(slices.Clone(lanes), sim.LaneGradient2) // its settings are for a lane run only when named
		}
		var outputs [2][]byte
		for i := range outputs {
			run, err := sim.New(*s.Config, sim.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r, err := run.RunToEnd(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if est, real := s.Config.EstimateEvents(), run.Events(); est > 2*real || real > 2*est {
				t.Errorf("%s: estimate %d events, the run %d: not within 2×", b.Name, est, real)
			}
			var out bytes.Buffer
			runs := []Run{{Scenario: s, Result: &r}}
			if err := WriteJSON(&out, runs); err != nil {
				t.Fatal(err)
			}
			if err := WriteTable(&out, runs); err != nil {
				t.Fatal(err)
			}
			outputs[i] = out.Bytes()
		}
		if !bytes.Equal(outputs[0], outputs[1]) {
			t.Errorf("%s: two runs of one seed wrote different output", b.Name)
		}
	}
	for _, name := range []string{"stripe-four-limiters", "retry-loop-2am", "botnet-under-the-limit", "downstream-slowdown"} {
		if !slices.Contains(ran, name) {
			t.Errorf("%s was not run (ran %v)", name, ran)
		}
	}
}
