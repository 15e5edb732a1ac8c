package tui

import (
	"strings"
	"testing"

	"github.com/rlsim/rlsim/algorithms"
)

// The view draws from minWidth columns on; one column fewer says too small.
func TestAuditMinWidthInclusive(t *testing.T) {
	for _, tc := range []struct {
		width int
		small bool
	}{{minWidth - 1, true}, {minWidth, false}} {
		m := newModel(t, builtins(t, "demo"), tc.width, 60)
		if got := strings.Contains(m.View(), "terminal too small"); got != tc.small {
			t.Errorf("width %d, height 60: too small %v, want %v", tc.width, got, tc.small)
		}
	}
}

// A burst equal to the limit follows the limit up and down; another burst
// stays; the default burst (0) stays the default.
func TestAuditSteppedBurstFollowsOnlyWhenEqual(t *testing.T) {
	for _, tc := range []struct {
		name      string
		p         algorithms.Policy
		up        bool
		wantBurst int64
	}{
		{"equal, up", algorithms.Policy{Limit: 100, Burst: 100}, true, 125},
		{"equal, down", algorithms.Policy{Limit: 100, Burst: 100}, false, 80},
		{"one more, up", algorithms.Policy{Limit: 100, Burst: 101}, true, 101},
		{"one less, down", algorithms.Policy{Limit: 100, Burst: 99}, false, 99},
		{"default", algorithms.Policy{Limit: 100}, true, 0},
	} {
		got := stepped(tc.p, knobLimit, tc.up)
		if got.Burst != tc.wantBurst {
			t.Errorf("%s: stepped(%+v, limit) burst %d, want %d", tc.name, tc.p, got.Burst, tc.wantBurst)
		}
	}
	// The burst knob steps the effective burst, so a default burst of 100 goes to 125.
	if got := stepped(algorithms.Policy{Limit: 100}, knobBurst, true); got.Burst != 125 || got.Limit != 100 {
		t.Errorf("stepped(limit 100, burst) = %+v, want burst 125 and the limit unchanged", got)
	}
}

// stepDown never goes under 1; stepUp leaves a value above maxRuleValue as it is.
func TestAuditStepsAtTheirEnds(t *testing.T) {
	if got := stepDown(1); got != 1 {
		t.Errorf("stepDown(1) = %d, want 1", got)
	}
	if got := stepUp(maxRuleValue + 7); got != maxRuleValue+7 {
		t.Errorf("stepUp(maxRuleValue+7) = %d, want it unchanged", got)
	}
	if got := stepUp(maxRuleValue - 1); got != maxRuleValue {
		t.Errorf("stepUp(maxRuleValue-1) = %d, want maxRuleValue", got)
	}
}
