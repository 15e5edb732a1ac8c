package sweep

import (
	"fmt"
	"strings"
	"testing"
)

// check counts the points a shard i/n of a grid owns (those whose index
// leaves i when divided by n, none when i is past the grid) and refuses a
// partial with another count, naming the shard and the grid.
func TestPartialCheckCountsTheShardsPoints(t *testing.T) {
	for _, tc := range []struct {
		points int // in the grid
		shard  string
		want   int
	}{
		{10, "0/4", 3}, {10, "1/4", 3}, {10, "2/4", 2}, {10, "3/4", 2},
		{3, "2/3", 1}, {3, "5/8", 0}, {1, "0/1", 1}, {4, "3/4", 1}, {4, "0/5", 1}, {4, "4/5", 0},
	} {
		values := make([]string, tc.points)
		for i := range values {
			values[i] = fmt.Sprint(i)
		}
		f := &partialFile{}
		f.Header.Varies = []Vary{{Path: "x", Values: values}}
		f.Header.PointCount = tc.points
		f.Header.Seeds = 1
		f.Shard = tc.shard
		f.Points = make([]PointResult, tc.want+1) // one too many
		grid := fmt.Sprintf("%d points", tc.points)
		if tc.points == 1 {
			grid = "1 point"
		}
		wantMsg := fmt.Sprintf("points: %d, but shard %s of %s holds %d", tc.want+1, tc.shard, grid, tc.want)
		found := false
		for _, e := range f.check() {
			if strings.HasPrefix(e.Error(), "points: ") {
				found = e.Error() == wantMsg
				if !found {
					t.Errorf("grid of %d, shard %s: %q, want %q", tc.points, tc.shard, e, wantMsg)
				}
			}
		}
		if !found {
			t.Errorf("grid of %d, shard %s with %d points: no %q", tc.points, tc.shard, tc.want+1, wantMsg)
		}
	}
}

// check refuses a partial without a shard, and a header whose point_count the
// varies do not make, before looking at the points.
func TestPartialCheckHeader(t *testing.T) {
	f := &partialFile{}
	f.Header.Varies = []Vary{{Path: "x", Values: []string{"1", "2"}}}
	f.Header.PointCount = 3
	f.Header.Seeds = 1
	got := fmt.Sprint(f.check())
	for _, w := range []string{"point_count: 3, but the varies make 2 points", "shard: none: not the result of one shard (--shard i/n)"} {
		if !strings.Contains(got, w) {
			t.Errorf("check() = %s, want %q", got, w)
		}
	}
	if strings.Contains(got, "points: ") {
		t.Errorf("check() = %s: looked at the points of a header in doubt", got)
	}
}
