package replay

import (
	"fmt"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// LaneNames are the per-key lanes a log can replay through, in table order, by
// their scenario-file names. AIMD and client throttling need a backend and
// clients that react, which a log does not have.
var LaneNames = []string{"fixed_window", "sliding_log", "sliding_window_counter", "token_bucket", "leaky_bucket", "gcra"}

// decider decides one limit's requests by key id, holding state only for live keys.
type decider interface {
	decide(key int32, now time.Duration) algorithms.Verdict
	evict(now time.Duration)
	live() int
}

// keyed is algorithms.Keyed on key ids, which hash faster than the key strings:
// a key's state is created on its first request and removed once the
// algorithm's Idle says it decides exactly as a never-seen key would.
type keyed[S any] struct {
	alg    algorithms.Algorithm[S]
	states map[int32]*S
}

func (k keyed[S]) decide(key int32, now time.Duration) algorithms.Verdict {
	s, ok := k.states[key]
	if !ok {
		s = new(S)
		k.states[key] = s
	}
	return k.alg.Decide(s, now, 1).Verdict
}

func (k keyed[S]) evict(now time.Duration) {
	for key, s := range k.states {
		if k.alg.Idle(s, now) {
			delete(k.states, key)
		}
	}
}

func (k keyed[S]) live() int { return len(k.states) }

func wrap[S any](alg algorithms.Algorithm[S], err error) (decider, error) {
	if err != nil {
		return nil, err
	}
	return keyed[S]{alg: alg, states: map[int32]*S{}}, nil
}

// newDecider builds lane's limiter for p.
func newDecider(lane string, p algorithms.Policy) (decider, error) {
	switch lane {
	case "fixed_window":
		return wrap[algorithms.FixedWindowState](algorithms.NewFixedWindow(p))
	case "sliding_log":
		return wrap[algorithms.SlidingLogState](algorithms.NewSlidingLog(p))
	case "sliding_window_counter":
		return wrap[algorithms.SlidingWindowCounterState](algorithms.NewSlidingWindowCounter(p))
	case "token_bucket":
		return wrap[algorithms.TokenBucketState](algorithms.NewTokenBucket(p))
	case "leaky_bucket":
		return wrap[algorithms.LeakyBucketState](algorithms.NewLeakyBucket(p))
	case "gcra":
		return wrap[algorithms.GCRAState](algorithms.NewGCRA(p))
	}
	return nil, fmt.Errorf("unknown lane %q (want one of %v)", lane, LaneNames)
}
