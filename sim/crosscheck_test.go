package sim

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestTheCrossCheckIsTheSlidingLog drives the cross-check's log and the
// algorithms package's sliding log with the same requests: several keys, costs
// up to above the limit, instants that repeat and that fall on window edges.
func TestTheCrossCheckIsTheSlidingLog(t *testing.T) {
	for _, p := range []algorithms.Policy{
		{Limit: 1, Window: 10 * time.Millisecond},
		{Limit: 3, Window: 10 * time.Millisecond},
		{Limit: 20, Window: 7 * time.Millisecond},
	} {
		rnd := rand.New(rand.NewPCG(uint64(p.Limit), 9))
		sl, err := algorithms.NewSlidingLog(p)
		if err != nil {
			t.Fatal(err)
		}
		const keys = 4
		states := make([]algorithms.SlidingLogState, keys)
		log := newUntimedTracker(p.Window, p.Limit, keys)
		var now time.Duration
		for i := range 20_000 {
			now += []time.Duration{0, time.Millisecond, p.Window, time.Duration(rnd.IntN(int(p.Window)))}[rnd.IntN(4)]
			key, cost := int32(rnd.IntN(keys)), int64(1+rnd.IntN(int(p.Limit)+1))
			if got, want := log.allow(key, now, cost), sl.Allow(&states[key], now, cost); got != want {
				t.Fatalf("%v per %v, request %d: allow(key %d, t0+%v, cost %d) = %v, the sliding log says %v",
					p.Limit, p.Window, i, key, now, cost, got, want)
			}
		}
	}
}
