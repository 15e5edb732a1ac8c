package report

import (
	"fmt"
	"strings"

	"github.com/rlsim/rlsim/algorithms"
	"github.com/rlsim/rlsim/sim"
)

// ruleFindings says what each rule push of the run set, and when.
func ruleFindings(r sim.Result) []string {
	var out []string
	for _, ch := range r.Rules {
		name := r.Limits[ch.Limit].Name
		what := "made " + name + " enforced"
		if ch.Shadow {
			what = "made " + name + " a shadow (it refuses nothing from then on)"
		}
		if ch.Policy != (algorithms.Policy{}) {
			what = fmt.Sprintf("set %s to %d per %s, burst %d (every key starting afresh), and %s", name,
				ch.Policy.Limit, FormatDuration(ch.Policy.Window), ch.Policy.EffectiveBurst(), strings.TrimPrefix(what, "made "+name+" "))
			what = strings.Replace(what, "and enforced", "enforced", 1)
		}
		out = append(out, fmt.Sprintf("at t=%s a rule push %s", FormatDuration(ch.At), what))
	}
	return out
}

// shadowFindings reports, per group of lanes with the same figures, the
// attempts shadow limits would have refused and let through, by class.
func shadowFindings(r sim.Result) []string {
	groups := map[string][]string{}
	var order []string
	for _, l := range r.Lanes {
		if l.ShadowRefused == 0 {
			continue
		}
		var classes []string
		for _, c := range l.Classes {
			if c.ShadowRefused > 0 {
				classes = append(classes, fmt.Sprintf("%s %d", c.Name, c.ShadowRefused))
			}
		}
		s := fmt.Sprintf("would have refused %d attempts and let them through (%s)", l.ShadowRefused, strings.Join(classes, ", "))
		if groups[s] == nil {
			order = append(order, s)
		}
		groups[s] = append(groups[s], l.Title())
	}
	var out []string
	for _, s := range order {
		who := "a shadow limit"
		if countShadows(r) > 1 {
			who = "shadow limits"
		}
		out = append(out, fmt.Sprintf("under %s, %s %s", list(groups[s]), who, s))
	}
	return out
}

// countShadows is how many limits of the chain are a shadow at some time.
func countShadows(r sim.Result) int {
	shadow := make([]bool, len(r.Limits))
	for i, l := range r.Limits {
		shadow[i] = l.Shadow
	}
	for _, ch := range r.Rules {
		shadow[ch.Limit] = shadow[ch.Limit] || ch.Shadow
	}
	n := 0
	for _, s := range shadow {
		if s {
			n++
		}
	}
	return n
}
