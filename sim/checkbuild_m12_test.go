package sim

import (
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// checkBuild's promise: a Config that validates is one New accepts, the
// sliding log that measures the first limit included, whatever the lanes.
// The log's largest limit is found by asking algorithms.NewSlidingLog (not a
// copied constant); at it Validate and New accept, one past it both refuse,
// Validate naming limits[0] and the log's reason, for lanes that are not a
// sliding log themselves.
func TestValidateRefusesAFirstLimitTheMeasuringLogCannotHold(t *testing.T) {
	w := time.Hour
	lo, hi := int64(1), int64(1)<<62 // NewSlidingLog accepts lo, refuses hi
	if _, err := algorithms.NewSlidingLog(algorithms.Policy{Limit: hi, Window: w}); err == nil {
		t.Fatal("the sliding log holds any limit: nothing to test")
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if _, err := algorithms.NewSlidingLog(algorithms.Policy{Limit: mid, Window: w}); err == nil {
			lo = mid
		} else {
			hi = mid
		}
	}
	_, logErr := algorithms.NewSlidingLog(algorithms.Policy{Limit: hi, Window: w})
	for _, lane := range []LaneKind{LaneTokenBucket, LaneFixedWindow, LaneGCRA} {
		cfg := func(limit int64) Config {
			return Config{Duration: time.Second, Lanes: []LaneKind{lane},
				Limits:  []Limit{{Key: KeyUser, Policy: algorithms.Policy{Limit: limit, Window: w}}},
				Clients: []ClientGroup{{Count: 1, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{Count: 1, Per: time.Second}}}}}}
		}
		if err := cfg(lo).Validate(); err != nil {
			t.Errorf("%v, limit %d (the log's most): Validate: %v", lane, lo, err)
		}
		if _, err := New(cfg(lo), Options{}); err != nil {
			t.Errorf("%v, limit %d: New: %v", lane, lo, err)
		}
		err := cfg(hi).Validate()
		if err == nil || !strings.Contains(err.Error(), "limits[0]") || !strings.Contains(err.Error(), logErr.Error()) {
			t.Errorf("%v, limit %d: Validate = %v, want limits[0]: %v", lane, hi, err, logErr)
		}
		if _, err := New(cfg(hi), Options{}); err == nil {
			t.Errorf("%v, limit %d: New accepted what Validate refuses", lane, hi)
		}
	}
}
