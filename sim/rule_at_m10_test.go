package sim

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// ruleSteps drives a fresh state of r through a fixed walk of instants and
// costs, returning its decisions.
func ruleSteps(s KeyState) []algorithms.Decision {
	var out []algorithms.Decision
	for k := range 90 {
		now := time.Duration(k) * 37 * time.Millisecond
		out = append(out, s.Decide(now, int64(1+k%2)))
	}
	return out
}

func sameSteps(t *testing.T, what string, got, want []algorithms.Decision) {
	t.Helper()
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("%s: step %d (t=%v) = %+v, want %+v", what, k, time.Duration(k)*37*time.Millisecond, got[k], want[k])
			return
		}
	}
}

// LaneRuleAt with the lane's own policy and no start is LaneRule, and with
// another policy it is the plain per-key rule of that policy, decision for
// decision; it names what it cannot build.
func TestLaneRuleAtDecidesAsTheRun(t *testing.T) {
	c := auditConfig()
	lanes := c.LanesRun()
	other := algorithms.Policy{Limit: 3, Window: 500 * time.Millisecond, Burst: 3}
	perKey := 0
	for i, k := range lanes {
		at, err := c.LaneRuleAt(i, 0, c.LanePolicy(i, 0), time.Time{})
		run, runErr := c.LaneRule(i, 0)
		if (err == nil) != (runErr == nil) {
			t.Fatalf("lane %v: LaneRuleAt error %v, LaneRule error %v", k, err, runErr)
		}
		if err != nil {
			// client_throttle's chain is the lane "default" (the throttle
			// sits in front of it), which the message names.
			if err.Error() != runErr.Error() || !strings.HasPrefix(err.Error(), "lane ") || !strings.HasSuffix(err.Error(), " has no per-key limiter") {
				t.Errorf("lane %v: LaneRuleAt error %q, LaneRule's %q, want lane … has no per-key limiter", k, err, runErr)
			}
			continue
		}
		perKey++
		sameSteps(t, k.String()+" own policy", ruleSteps(at.NewState()), ruleSteps(run.NewState()))
		at2, err := c.LaneRuleAt(i, 0, other, time.Time{})
		if err != nil {
			t.Fatalf("lane %v: LaneRuleAt(%+v): %v", k, other, err)
		}
		plain, err := k.PerKey(other)
		if err != nil {
			t.Fatalf("lane %v: PerKey: %v", k, err)
		}
		sameSteps(t, k.String()+" other policy", ruleSteps(at2.NewState()), ruleSteps(plain.NewState()))
		if _, err := c.LaneRuleAt(i, 0, algorithms.Policy{Window: time.Second}, time.Time{}); err == nil {
			t.Errorf("lane %v: LaneRuleAt of a limit of 0 gave no error", k)
		}
	}
	if perKey < 4 {
		t.Fatalf("only %d default lanes have a per-key rule", perKey)
	}
	for _, i := range []int{-1, len(lanes)} {
		_, err := c.LaneRuleAt(i, 0, other, time.Time{})
		if err == nil || err.Error() != "no lane "+strconv.Itoa(i) {
			t.Errorf("LaneRuleAt(%d) error %v, want no lane %d", i, err, i)
		}
	}
}

// A placed state charged over its limit decides otherwise than a fresh one,
// and a copy decides as its source from then on, independently: a copy
// driven apart leaves the source as it was.
func TestPlacedStateChargeAndCopy(t *testing.T) {
	c := auditConfig()
	p := c.LanePolicy(0, 0)
	for _, k := range c.LanesRun() {
		rule, err := k.PerKey(p)
		if err != nil {
			continue
		}
		fresh := rule.NewState().(PlacedState).Decide(0, 1)
		src := rule.NewState().(PlacedState)
		src.Charge(0, 3*p.Limit)
		charged := rule.NewState().(PlacedState)
		charged.CopyFrom(src)
		if d := charged.Decide(0, 1); d.Verdict == fresh.Verdict && d.Delay == fresh.Delay {
			t.Errorf("%v: after Charge(0, %d) Decide(0, 1) = %+v, as a fresh state's", k, 3*p.Limit, d)
		}
		apart := rule.NewState().(PlacedState)
		apart.CopyFrom(src)
		same := rule.NewState().(PlacedState)
		same.CopyFrom(src)
		drivenApart := ruleSteps(apart)
		sameSteps(t, k.String()+" source after a copy driven apart", ruleSteps(src), drivenApart)
		sameSteps(t, k.String()+" second copy", ruleSteps(same), drivenApart)
	}
}
