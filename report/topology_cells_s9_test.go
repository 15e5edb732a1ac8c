package report

import (
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// Every topology column, whether or not the CSV has it, reads "-" in the
// tables and "" in the CSV for a lane the topology does not apply to (as
// topologyColumns' doc says), with no topology and with one of no limit.
func TestEveryTopologyColumnOfALaneWithoutOne(t *testing.T) {
	for _, l := range []*sim.LaneResult{{Lane: sim.LaneAIMD}, {Lane: sim.LaneGCRA, Topology: &sim.TopologyResult{Replicas: 2}}} {
		for _, c := range topologyColumns {
			name := c.head + c.csv
			if c.text != nil && l.Topology == nil && c.text(l) != "-" {
				t.Errorf("%s cell of a lane without topology = %q, want -", name, c.text(l))
			}
			if c.text != nil && l.Topology != nil && c.head == "replica max" && c.text(l) != "-" {
				t.Errorf("%s cell of a lane without limits = %q, want -", name, c.text(l))
			}
			if c.lane != nil && l.Topology == nil && c.lane(l) != "" {
				t.Errorf("%s field of a lane without topology = %q, want empty", name, c.lane(l))
			}
		}
	}
}
