package sim

import (
	"testing"
	"time"
)

// Concurrency limits and load shedders: with every setting of the switches
// a world with them gives the general path's figures and trace, with a
// backend and without (where a concurrency-limiter lane takes the kernel,
// fast_conc.go, and the chain's concurrency limits keep a lane off it).
func TestFastPathsWithConcurrencyAndShedding(t *testing.T) {
	var worlds []Config
	for seed := range uint64(6) {
		c := concTraffic{N: uint8(seed), Clients: uint8(3 + seed), Rate: uint8(40 * seed), Service: 90, Queue: 2, Cap: 3, Leaky: seed%2 == 0, Seed: seed}.config()
		c.Lanes = append(c.Lanes, LaneGCRA, LaneFixedWindow)
		worlds = append(worlds, c)
		bare := c
		bare.Backend = nil
		bare.Clients = []ClientGroup{{Name: "c", Count: 50, Arrivals: []Arrival{{Kind: ArrivalBurst, Count: 3}, {Kind: ArrivalPoisson, Rate: Rate{Count: 50, Per: time.Second}}}}}
		worlds = append(worlds, bare)
		worlds = append(worlds, shedTraffic{Crit: [4]uint8{0, 1, 2, 3}, Rate: [4]uint8{uint8(seed * 9), 30, 40, 50}, Cap: 3, Queue: 4,
			Serv: 50, Reserve: uint8(seed), Thresh: 5, Step: 2, Retry: seed%2 == 1, Grid: seed%3 == 0, Seed: seed}.config())
	}
	for i, c := range worlds {
		out, err := checkFastPaths(c, diffSets())
		if err != nil {
			t.Errorf("world %d: %v", i, err)
		} else if !out.valid {
			t.Errorf("world %d does not validate: it tests nothing", i)
		}
	}
}
