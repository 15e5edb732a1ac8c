package conform

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// twin is the exact algorithm of a lane, one state per key, fed the instants
// the limiter on Redis decided at: where it agrees with Redis and the exact
// lane does not, the difference is the clock's, not the script's.
type twin interface {
	decide(key string, now time.Duration, cost int64) algorithms.Decision
	fresh() twin // the same algorithm with every key never seen
}

// keyedTwin is the registry's per-key algorithm of a lane, one state per key.
type keyedTwin struct {
	rule   sim.KeyRule
	states map[string]sim.KeyState
}

func (t *keyedTwin) decide(key string, now time.Duration, cost int64) algorithms.Decision {
	s, ok := t.states[key]
	if !ok {
		s = t.rule.NewState()
		t.states[key] = s
	}
	return s.Decide(now, cost)
}

func (t *keyedTwin) fresh() twin {
	return &keyedTwin{rule: t.rule, states: map[string]sim.KeyState{}}
}

// newTwin is lane's exact algorithm with policy p.
func newTwin(lane sim.LaneKind, p algorithms.Policy) (twin, error) {
	if lane.Info().Class != sim.RateLimiter {
		return nil, fmt.Errorf("lane %s has no per-key algorithm to compare with", lane)
	}
	rule, err := lane.PerKey(p)
	if err != nil {
		return nil, err
	}
	return &keyedTwin{rule: rule, states: map[string]sim.KeyState{}}, nil
}
