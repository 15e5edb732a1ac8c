package sim

import (
	"fmt"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// A Kong advanced lane's own settings reach its rule: the lane decides, step
// for step, as the algorithm built with that window type and penalty, and
// the four settings do not all decide alike on the walk (so each is seen).
func TestKongAdvancedSettingsReachTheRule(t *testing.T) {
	c := auditConfig()
	var settings []KongAdvancedSettings
	for _, fixed := range []bool{false, true} {
		for _, noPenalty := range []bool{false, true} {
			settings = append(settings, KongAdvancedSettings{Fixed: fixed, DisablePenalty: noPenalty})
		}
	}
	for i, s := range settings {
		c.Lanes = append(c.Lanes, LaneKongAdvanced)
		c.Variants = append(c.Variants, Variant{Name: fmt.Sprintf("kong-%d", i), Product: ProductSettings{KongAdvanced: &s}})
	}
	walks := map[string]bool{}
	for i, s := range settings {
		rule, err := c.LaneRule(i, 0)
		if err != nil {
			t.Fatalf("lane %d: %v", i, err)
		}
		x, err := algorithms.KongAdvancedParamsOf(c.LanePolicy(i, 0))
		if err != nil {
			t.Fatal(err)
		}
		x.Epoch, x.DisablePenalty = c.Start, s.DisablePenalty
		if s.Fixed {
			x.WindowType = algorithms.KongFixed
		}
		alg, err := algorithms.NewKongAdvanced(x)
		if err != nil {
			t.Fatal(err)
		}
		var st algorithms.KongAdvancedState
		var want []algorithms.Decision
		for k := range 90 {
			want = append(want, alg.Decide(&st, time.Duration(k)*37*time.Millisecond, int64(1+k%2)))
		}
		got := ruleSteps(rule.NewState())
		sameSteps(t, fmt.Sprintf("%+v", s), got, want)
		walks[fmt.Sprint(got)] = true
	}
	if len(walks) < 3 {
		t.Errorf("the four settings decide in only %d ways on the walk", len(walks))
	}
}
