package main

import (
	"strings"
	"testing"
)

// Each flag bound at its edge and one past it. Every case adds one flag that
// is always wrong (the companion), so the command stops at its flag check and
// the case holds only by whether the flag under test is named too.
func TestAuditFlagEdges(t *testing.T) {
	conform := []string{"conform", "--redis", "127.0.0.1:1", "--format", "xml", "demo"}
	replay := []string{"replay", "no-such.log", "--limit", "key=ip limit=100/1m", "--format", "xml"}
	sweep := []string{"sweep", "noisy-neighbour", "--vary", "limits[0].limit=10,20", "--width", "-1"}
	for _, tc := range []struct {
		base      []string
		companion string
		flag      string
		value     string
		refused   bool
	}{
		{conform, "--format", "--runs", "1", false},
		{conform, "--format", "--runs", "1000", false},
		{conform, "--format", "--runs", "1001", true},
		{conform, "--format", "--replicas", "1,64", false},
		{conform, "--format", "--replicas", "1,65", true},
		{conform, "--format", "--tolerance", "0s", false},
		{conform, "--format", "--tolerance", "-1ns", true},
		{conform, "--format", "--max-events", "1", false},
		{conform, "--format", "--max-events", "0", true},
		{conform, "--format", "--max-wall", "1ns", false},
		{conform, "--format", "--max-wall", "0s", true},
		{replay, "--format", "--top", "1", false},
		{replay, "--format", "--top", "0", true},
		{replay, "--format", "--late", "0s", false},
		{replay, "--format", "--late", "-1ns", true},
		{replay, "--format", "--legit-below", "0", true},
		{replay, "--format", "--legit-below", "1e-9", false},
		{sweep, "--width", "--jobs", "0", false},
		{sweep, "--width", "--jobs", "1024", false},
		{sweep, "--width", "--jobs", "1025", true},
		{sweep, "--width", "--max-events", "1", false},
		{sweep, "--width", "--max-events", "0", true},
		{sweep, "--width", "--duration", "1ns", false},
		{sweep, "--width", "--duration", "0s", true},
	} {
		args := append(append([]string{}, tc.base...), tc.flag, tc.value)
		if tc.flag == "--runs" {
			args = append(args, "--replicas", "1")
		}
		t.Run(tc.base[0]+" "+tc.flag+"="+tc.value, func(t *testing.T) {
			code, _, errOut := execute(t, args...)
			if code != exitBadInput || !strings.Contains(errOut, tc.companion+":") {
				t.Fatalf("exit %d, stderr %q; want %d naming the companion %s", code, errOut, exitBadInput, tc.companion)
			}
			if got := strings.Contains(errOut, tc.flag+":"); got != tc.refused {
				t.Errorf("stderr %q names %s: %v, want %v", errOut, tc.flag, got, tc.refused)
			}
		})
	}
}

// rlsim run takes --width 0 (no wrapping), --max-events 1 and --duration 1ns;
// one past each is refused. --format, checked last, is the companion that
// shows the flags before it passed.
func TestAuditRunWidthAndBudgetEdges(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--width", "0", "--max-events", "1", "--duration", "1ns", "--format", "xml"}, "--format: unknown value"},
		{[]string{"run", "--width", "-1", "--format", "xml"}, "--width: must be 0 or more, got -1"},
		{[]string{"run", "--max-events", "0", "--format", "xml"}, "--max-events: must be positive, got 0"},
		{[]string{"run", "--duration", "0s", "--format", "xml"}, "--duration: must be positive, got 0s"},
		{[]string{"run", "--seeds", "1000", "--format", "xml"}, "--format: unknown value"},
		{[]string{"run", "--seeds", "0", "--format", "xml"}, "--seeds: want 1 to 1000, got 0"},
	} {
		code, _, errOut := execute(t, tc.args...)
		if code != exitBadInput || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", tc.args, code, errOut, exitBadInput, tc.want)
		}
	}
}
