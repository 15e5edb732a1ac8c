package tui

import (
	"strings"
	"testing"
)

// A slice whose attempts were admitted shows the shadow's mark when a shadow
// limit would have refused some of them; a refusal made, shed or drop keeps
// its own mark.
func TestShadowMark(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    cell
		want mark
	}{
		{"admitted, none would be refused", cell{slice: slice{admitted: 3}}, markAdmit},
		{"admitted, one would be refused", cell{slice: slice{admitted: 3, shadow: 1}}, markShadow},
		{"delayed, one would be refused", cell{slice: slice{delayed: 2, shadow: 1}}, markShadow},
		{"refused by another limit", cell{slice: slice{refused: 3, shadow: 1}}, markRefuse},
		{"admitted and refused", cell{slice: slice{admitted: 2, refused: 2, shadow: 1}}, markMixed},
		{"shed", cell{slice: slice{admitted: 2, shed: 2, shadow: 1}}, markShed},
	} {
		if got := markOf(&tc.c); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, glyphs[got], glyphs[tc.want])
		}
	}
}

// shadow-rollout in its dry run: the scraper's slices show the shadow's mark,
// which the legend names; the view is golden.
func TestShadowRolloutView(t *testing.T) {
	m := newModel(t, builtins(t, "shadow-rollout"), 100, 24)
	msgs := keys("space")
	for range 40 {
		msgs = append(msgs, keyMsg("right"))
	}
	send(m, msgs...)
	v := m.View()
	checkGolden(t, "shadow_rollout_dry_run", v)
	lanes := strings.SplitN(v, "\n", 5)[4]
	if !strings.Contains(lanes, glyphs[markShadow]) {
		t.Errorf("no %q in the lanes of a dry run:\n%s", glyphs[markShadow], v)
	}
	if !strings.Contains(v, glyphs[markShadow]+" would refuse (shadow)") {
		t.Errorf("the legend does not name the shadow's mark:\n%s", v)
	}
	plain := newModel(t, builtins(t, "demo"), 100, 24)
	send(plain, msgs...)
	if v := plain.View(); strings.Contains(v, glyphs[markShadow]) {
		t.Errorf("a scenario without a shadow shows its mark:\n%s", v)
	}
}
