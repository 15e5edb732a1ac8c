package sim

import (
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// delayingWorld is testdata/bench/100m.yaml's traffic on lane: 100 Poisson
// clients at 10,000 a second each, one global limit of 1,200,000 a second,
// no retries, no backend. The rate lanes admit every request at once; the
// leaky bucket delays most by microseconds; AIMD, Vegas and the client
// throttle, with no backend, admit every request (Gradient2 too).
func delayingWorld(d time.Duration, lane LaneKind) Config {
	return Config{
		Duration: d, Lanes: []LaneKind{lane},
		Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 1_200_000, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 100,
			Arrivals: []Arrival{{Kind: ArrivalPoisson, Rate: Rate{Count: 10_000, Per: time.Second}}}}},
	}
}

// BenchmarkDelayingLanes is the cost per attempt (cpu-ns/attempt) of the
// delaying and adaptive lanes against the token bucket lane's on the same
// traffic (delayingWorld): compare BenchmarkDelayingLanes/<lane> with
// BenchmarkDelayingLanes/token_bucket.
func BenchmarkDelayingLanes(b *testing.B) {
	for _, lane := range []LaneKind{LaneTokenBucket, LaneLeakyBucket, LaneNginx, LaneAIMD, LaneVegas, LaneGradient2, LaneClientThrottle} {
		b.Run(lane.String(), func(b *testing.B) { benchmarkEvents(b, delayingWorld(200*time.Second, lane)) })
	}
}
