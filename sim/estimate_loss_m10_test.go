package sim

import (
	"testing"
	"time"
)

// The estimate counts one event per store loss: each restart and each outage
// that flushes the store; an outage that keeps the state loses nothing.
func TestEstimateCountsEveryStoreLoss(t *testing.T) {
	for _, tc := range []struct {
		restarts int
		flushes  []bool
	}{
		{0, nil}, {2, nil}, {0, []bool{false}}, {0, []bool{true}}, {1, []bool{true, false, true}}, {3, []bool{false, false}},
	} {
		var c Config
		c.Topology = &Topology{}
		c.Topology.Store.Restarts = make([]time.Duration, tc.restarts)
		want := tc.restarts
		for _, f := range tc.flushes {
			c.Topology.Store.Outages = append(c.Topology.Store.Outages, Outage{Flush: f})
			if f {
				want++
			}
		}
		if got := c.lossEvents(); got != float64(want) {
			t.Errorf("%d restarts, outages flushing %v: lossEvents = %v, want %d", tc.restarts, tc.flushes, got, want)
		}
	}
}
