package sim

import (
	"slices"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// TestLaneOrderTakesTheLongestFirst checks the order in which workers take the
// lanes up: deciding through the whole chain (the leaky bucket, which delays;
// any lane of a chain of two limits) before a client gate, before a
// concurrency limiter, before a lane that admits by verdict alone; ties in
// lane order.
func TestLaneOrderTakesTheLongestFirst(t *testing.T) {
	one := []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}}
	two := append(slices.Clone(one), Limit{Key: KeyUser, Policy: algorithms.Policy{Limit: 5, Window: time.Second}})
	for _, tt := range []struct {
		name   string
		limits []Limit
		want   []LaneKind
	}{
		{"one limit", one, []LaneKind{LaneLeakyBucket, LaneClientThrottle, LaneAIMD,
			LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneTokenBucket, LaneGCRA}},
		{"two limits", two, []LaneKind{LaneFixedWindow, LaneSlidingLog, LaneSlidingWindowCounter, LaneTokenBucket,
			LaneLeakyBucket, LaneGCRA, LaneClientThrottle, LaneAIMD}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := Config{Lanes: DefaultLanes(), Limits: tt.limits}
			var got []LaneKind
			for _, i := range cfg.laneOrder() {
				got = append(got, cfg.Lanes[i])
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("laneOrder() = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestLaneOrderWeighsASharingGroupAsAllItsLanes checks that the leader of lanes
// sharing requests, which runs them all on one core, is taken up first when
// they outweigh every other lane, and its followers last.
func TestLaneOrderWeighsASharingGroupAsAllItsLanes(t *testing.T) {
	cfg := Config{Lanes: DefaultLanes(), Limits: []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}}}
	group := []int{0, 1, 2, 3, 5} // fixed window leading sliding log, counter, token bucket, GCRA
	var got []LaneKind
	for _, i := range cfg.laneOrder(group...) {
		got = append(got, cfg.Lanes[i])
	}
	want := []LaneKind{LaneFixedWindow, LaneLeakyBucket, LaneClientThrottle, LaneAIMD,
		LaneSlidingLog, LaneSlidingWindowCounter, LaneTokenBucket, LaneGCRA}
	if !slices.Equal(got, want) {
		t.Errorf("laneOrder(%v) = %v, want %v", group, got, want)
	}
}
