package sweep

import (
	"fmt"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// A range may list exactly MaxPoints values, numbers or durations, and not
// one more.
func TestAuditRangeAtMostMaxPoints(t *testing.T) {
	for _, tc := range []struct {
		arg string
		n   int // 0: refused
	}{
		{fmt.Sprintf("x=1..%d/1", MaxPoints), MaxPoints},
		{fmt.Sprintf("x=1..%d/1", MaxPoints+1), 0},
		{fmt.Sprintf("x=1ns..%dns/1ns", MaxPoints), MaxPoints},
		{fmt.Sprintf("x=0ns..%dns/1ns", MaxPoints), 0},
		{"x=0.5..1.5/0.5", 3},
		{"x=1..1/1", 1},
		{"x=2..1/1", 0},
		{"x=1..2/0", 0},
		{"x=1s..1s/1s", 1},
		{"x=1s..2s/0s", 0},
	} {
		v, err := ParseVary(tc.arg)
		if tc.n == 0 {
			if err == nil {
				t.Errorf("ParseVary(%.40s) = %d values, want refused", tc.arg, len(v.Values))
			}
			continue
		}
		if err != nil || len(v.Values) != tc.n {
			t.Errorf("ParseVary(%.40s) = %d values, %v; want %d", tc.arg, len(v.Values), err, tc.n)
		}
	}
}

// A range's numbers may have 30 decimals (the error says so), not one more.
func TestAuditRangeDecimals(t *testing.T) {
	const maxDecimals = 30
	at := "0." + strings.Repeat("0", maxDecimals-1) + "1"
	past := "0." + strings.Repeat("0", maxDecimals) + "1"
	if v, err := ParseVary("x=" + at + ".." + at + "/1"); err != nil || len(v.Values) != 1 {
		t.Errorf("%d decimals: %v, %v; want one value", maxDecimals, v.Values, err)
	}
	if _, err := ParseVary("x=" + past + ".." + past + "/1"); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("at most %d decimals, got %d", maxDecimals, maxDecimals+1)) {
		t.Errorf("%d decimals: %v, want at most %d", maxDecimals+1, err, maxDecimals)
	}
}

// A grid may have MaxPoints points, not one more.
func TestAuditGridAtMostMaxPoints(t *testing.T) {
	values := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprint(i)
		}
		return out
	}
	if n, err := PointCount([]Vary{{Path: "a", Values: values(100)}, {Path: "b", Values: values(100)}}); err != nil || n != MaxPoints {
		t.Errorf("100 × 100: %d, %v; want %d", n, err, MaxPoints)
	}
	if _, err := PointCount([]Vary{{Path: "a", Values: values(100)}, {Path: "b", Values: values(101)}}); err == nil {
		t.Errorf("100 × 101 points accepted, more than %d", MaxPoints)
	}
	grid, err := Grid([]Vary{{Path: "a", Values: values(2)}, {Path: "b", Values: values(3)}})
	if err != nil || len(grid) != 6 || grid[0][0] != "0" || grid[0][1] != "0" || grid[1][1] != "1" || grid[3][0] != "1" || grid[3][1] != "0" {
		t.Errorf("Grid(2 × 3) = %v, %v; want 6 points, the last vary fastest", grid, err)
	}
}

// The suggested budget is n rounded up to two significant digits: a power of
// ten and its neighbours.
func TestAuditSuggestedBudgetAroundPowersOfTen(t *testing.T) {
	for _, tc := range []struct{ n, want int64 }{
		{0, 0}, {10, 10}, {999, 1000}, {1000, 1000}, {1001, 1100}, {1099, 1100}, {1100, 1100}, {1101, 1200},
	} {
		if got := run.SuggestedBudget(tc.n); got != tc.want {
			t.Errorf("SuggestedBudget(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}

// ParseShard: n may be MaxPoints itself.
func TestAuditShardCountMaxPoints(t *testing.T) {
	s := fmt.Sprintf("0/%d", MaxPoints)
	if sh, err := ParseShard(s); err != nil || sh != (Shard{0, MaxPoints}) {
		t.Errorf("ParseShard(%s) = %v, %v; want accepted", s, sh, err)
	}
}
