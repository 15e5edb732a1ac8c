package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

func TestPacingTableOnlyWhenAClassPaces(t *testing.T) {
	classes := []sim.ClassResult{
		{Name: "pacers", Pace: true, Unique: 50, Attempts: 40, Refused: 0},
		{Name: "hitters", Unique: 50, Attempts: 200, Refused: 150},
	}
	r := sim.Result{Lanes: []sim.LaneResult{{Lane: sim.LaneGCRA, Classes: classes}}}
	var b bytes.Buffer
	writePacing(&b, r)
	lines := strings.Split(b.String(), "\n")
	if len(lines) < 4 || !strings.Contains(lines[2], "pacers (pacing)") || strings.Contains(lines[2], "hitters (pacing)") {
		t.Fatalf("pacing table head wrong:\n%s", b.String())
	}
	if got := strings.Join(strings.Fields(lines[3]), " "); got != "GCRA 40 0% 200 75%" {
		t.Errorf("GCRA row = %q, want pacers 40 attempts 0%% refused, hitters 200 and 75%%", got)
	}
	b.Reset()
	classes[0].Pace = false
	writePacing(&b, r)
	if b.Len() != 0 {
		t.Errorf("no class paces, yet:\n%s", b.String())
	}
}
