package sim

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/algorithms"
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

// newDecider builds the per-key limiter of a rate-limiter lane for keys keys.
func newDecider(kind LaneKind, p algorithms.Policy, keys int) (decider, error) {
	if !kind.known() || kind.Info().rate == nil {
		return nil, fmt.Errorf("lane %v has no per-key limiter", kind)
	}
	newState, err := kind.Info().rate(p)
	if err != nil {
		return nil, err
	}
	return newState(keys), nil
}

// concurrencyLimiter bounds the requests in flight to the backend: a lane of
// class ConcurrencyLimiter asks it before a request enters and tells it when the
// request completes. The algorithms package's AIMD and Vegas are ones.
type concurrencyLimiter interface {
	// Acquire admits a request at now, counting it in flight, or refuses it.
	Acquire(now time.Duration) bool
	// Release records the completion at now of an acquired request that took latency.
	Release(now, latency time.Duration)
	// Limit is the current limit on requests in flight.
	Limit() float64
}

// clientGate drops requests in the client before they are sent: a lane of class
// ClientGate asks it before every attempt of client c and tells it every answer.
type clientGate interface {
	allow(c int32, now time.Duration) bool
	answered(c int32, now time.Duration, accepted bool)
}
