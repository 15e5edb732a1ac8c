package sweep

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestPlanAtMostMaxRuns_s4: a sweep of exactly MaxRuns runs (points owned ×
// seeds) passes the runs cap; one past it does not.
func TestPlanAtMostMaxRuns_s4(t *testing.T) {
	const capMsg = "one machine keeps"
	for _, tc := range []struct {
		name            string
		points, seeds   int
		shard           Shard
		wantRunsRefused bool
	}{
		{"exactly MaxRuns", 100, 1000, Shard{}, false},
		{"exactly MaxRuns in a shard", 200, 1000, Shard{1, 2}, false},
		{"past MaxRuns", 101, 991, Shard{}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.points*tc.seeds/max(1, tc.shard.Count) != MaxRuns && !tc.wantRunsRefused {
				t.Fatalf("case does not make MaxRuns runs")
			}
			sw := testSweep()
			sw.Seeds = tc.seeds
			sw.Varies[0].Values = countTo(tc.points)
			sw.Shard = tc.shard
			sw.Overrides.MaxEvents = 1 // stop at the budget, after the runs cap, before any run
			_, err := sw.Plan()
			refused := err != nil && strings.Contains(err.Error(), capMsg)
			if refused != tc.wantRunsRefused {
				t.Errorf("%d points × %d seeds (shard %v): Plan() error = %v, want refused by the runs cap: %v", tc.points, tc.seeds, tc.shard, err, tc.wantRunsRefused)
			}
			if !tc.wantRunsRefused && (err == nil || !strings.Contains(err.Error(), "estimated to need")) {
				t.Errorf("Plan() error = %v, want the event budget's (checked after the runs cap)", err)
			}
		})
	}
}

// TestParseVaryListAtMostMaxPoints_s4: a --vary list of exactly MaxPoints
// values is read; one more is refused.
func TestParseVaryListAtMostMaxPoints_s4(t *testing.T) {
	list := func(n int) string {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = strconv.Itoa(i + 1)
		}
		return "x=" + strings.Join(vs, ",")
	}
	v, err := ParseVary(list(MaxPoints))
	if err != nil || len(v.Values) != MaxPoints {
		t.Errorf("ParseVary(a list of %d) = %d values, %v; want %d values, nil", MaxPoints, len(v.Values), err, MaxPoints)
	}
	_, err = ParseVary(list(MaxPoints + 1))
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("%d values, more than a sweep's %d points", MaxPoints+1, MaxPoints)) {
		t.Errorf("ParseVary(a list of %d) error = %v, want more than a sweep's %d points", MaxPoints+1, err, MaxPoints)
	}
}
