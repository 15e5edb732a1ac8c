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

type keyedTwin[S any] struct {
	alg    algorithms.Algorithm[S]
	states map[string]*S
}

func (t *keyedTwin[S]) decide(key string, now time.Duration, cost int64) algorithms.Decision {
	s, ok := t.states[key]
	if !ok {
		s = new(S)
		t.states[key] = s
	}
	return t.alg.Decide(s, now, cost)
}

func (t *keyedTwin[S]) fresh() twin { return &keyedTwin[S]{alg: t.alg, states: map[string]*S{}} }

func newKeyed[S any](alg algorithms.Algorithm[S], err error) (twin, error) {
	if err != nil {
		return nil, err
	}
	return &keyedTwin[S]{alg: alg, states: map[string]*S{}}, nil
}

// newTwin is lane's exact algorithm with policy p.
func newTwin(lane sim.LaneKind, p algorithms.Policy) (twin, error) {
	switch lane {
	case sim.LaneFixedWindow:
		return newKeyed[algorithms.FixedWindowState](algorithms.NewFixedWindow(p))
	case sim.LaneSlidingLog:
		return newKeyed[algorithms.SlidingLogState](algorithms.NewSlidingLog(p))
	case sim.LaneSlidingWindowCounter:
		return newKeyed[algorithms.SlidingWindowCounterState](algorithms.NewSlidingWindowCounter(p))
	case sim.LaneTokenBucket:
		return newKeyed[algorithms.TokenBucketState](algorithms.NewTokenBucket(p))
	case sim.LaneGCRA:
		return newKeyed[algorithms.GCRAState](algorithms.NewGCRA(p))
	}
	return nil, fmt.Errorf("lane %s has no per-key algorithm to compare with", lane)
}
