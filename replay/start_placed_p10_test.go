package replay

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// startPlaced builds the rules of every placed decider of a lane, at the
// log's origin, whatever deciders come before or between them (a limit
// decided alone, not placed, is left as it is).
func TestStartPlacedStartsEveryPlacedDecider(t *testing.T) {
	kind, _ := sim.ParseLane("nginx")
	origin := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var starts []time.Time
	placed := func() *placedLimit {
		d, err := newPlaced(kind, mustLimit(t, "key=ip limit=100/1s").Policy, Place{}, 3, new(int32), time.Second,
			func(p algorithms.Policy, at time.Time) (sim.KeyRule, error) {
				starts = append(starts, at)
				return kind.PerKey(p)
			})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	a, b := placed(), placed()
	starts = nil
	startPlaced([]decider{nil, a, nil, b}, origin) // nil: a decider that is no placedLimit
	for i, d := range []*placedLimit{a, b} {
		if len(d.rules) != 3 || d.rules[0] == nil || !d.origin.Equal(origin) {
			t.Errorf("placed decider %d: %d rules, origin %v; want 3 rules at %v", i, len(d.rules), d.origin, origin)
		}
	}
	if len(starts) != 6 {
		t.Fatalf("%d rules built, want 6 (3 replicas of each)", len(starts))
	}
	for i, at := range starts {
		if !at.Equal(origin) {
			t.Errorf("rule %d built at %v, want the origin %v", i, at, origin)
		}
	}
}
