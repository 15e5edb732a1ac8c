package sim

import (
	"fmt"

	"github.com/rlsim/rlsim/algorithms"

	"time"
)

// decider is one limit of a lane's chain: an algorithm with a dense table of key states.
type decider interface {
	decide(key int32, now time.Duration, cost int64) algorithms.Decision
	peek(key int32, now time.Duration, cost int64) algorithms.Decision // decide's answer, changing nothing
}

type dense[S any] struct {
	alg    algorithms.Algorithm[S]
	states []S
}

func (d *dense[S]) decide(key int32, now time.Duration, cost int64) algorithms.Decision {
	return d.alg.Decide(&d.states[key], now, cost)
}

func (d *dense[S]) peek(key int32, now time.Duration, cost int64) algorithms.Decision {
	return algorithms.Peek(d.alg, &d.states[key], now, cost)
}

func newDense[S any](alg algorithms.Algorithm[S], err error, keys int) (decider, error) {
	if err != nil {
		return nil, err
	}
	return &dense[S]{alg: alg, states: make([]S, keys)}, nil
}

// newDecider builds the per-key limiter of a lane kind for keys keys.
func newDecider(kind LaneKind, p algorithms.Policy, keys int) (decider, error) {
	switch kind {
	case LaneFixedWindow:
		a, err := algorithms.NewFixedWindow(p)
		return newDense[algorithms.FixedWindowState](a, err, keys)
	case LaneSlidingLog:
		a, err := algorithms.NewSlidingLog(p)
		return newDense[algorithms.SlidingLogState](a, err, keys)
	case LaneSlidingWindowCounter:
		a, err := algorithms.NewSlidingWindowCounter(p)
		return newDense[algorithms.SlidingWindowCounterState](a, err, keys)
	case LaneTokenBucket:
		a, err := algorithms.NewTokenBucket(p)
		return newDense[algorithms.TokenBucketState](a, err, keys)
	case LaneLeakyBucket:
		a, err := algorithms.NewLeakyBucket(p)
		return newDense[algorithms.LeakyBucketState](a, err, keys)
	case LaneGCRA:
		a, err := algorithms.NewGCRA(p)
		return newDense[algorithms.GCRAState](a, err, keys)
	}
	return nil, fmt.Errorf("lane %v has no per-key limiter", kind)
}
