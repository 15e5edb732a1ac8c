package tui

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
)

// The known bug: the info line said "of 240s" for incident-0341, a 120s
// scenario: it gave the end of the drain (duration plus drain, by default
// the duration again). It gives the duration, and past it that the run drains.
func TestInfoLineGivesTheDuration(t *testing.T) {
	m := pausedAt(t, builtins(t, "incident-0341"), 1)
	if info, _ := m.infoLine(); !strings.Contains(info, " of 120s · ") {
		t.Errorf("info line %q, want the scenario's 120s", info)
	}
	for _, tc := range []struct {
		now      time.Duration
		finished bool
		want     string
	}{
		{119 * time.Second, false, "t=119.00s of 120s"},
		{120 * time.Second, false, "t=120.00s of 120s"},
		{150 * time.Second, false, "t=150.00s of 120s, draining (to 240s at most)"},
		{150 * time.Second, true, "t=150.00s of 120s, drained"},
	} {
		if got := clockInfo(tc.now, 120*time.Second, 240*time.Second, tc.finished); got != tc.want {
			t.Errorf("clockInfo(%v, finished %v) = %q, want %q", tc.now, tc.finished, got, tc.want)
		}
	}
}

// The health check example of docs/scenarios.md, its phases by hand (see
// report's TestPhaseFindingTellsTheHealthExampleInOrder): at 30s the store is
// down (since 20s), both replicas out since 25s and none in the rotation; the
// line names that state and the phases so far with their times, newest last;
// at 62s both are back (60s) and the store answers (50s): all well.
func TestPhasesLineOfTheHealthExample(t *testing.T) {
	m, i := healthModelAt30s(t)
	want := "now: the store failing, 2 replicas out, no healthy replica · t=5s the store refusing calls · t=5s health failing closed · " +
		"t=10s the store answering again · t=20s the store refusing calls · t=20s health failing closed · t=25s replica 0 out of the rotation · " +
		"t=25s replica 1 out of the rotation · t=25s no replica in the rotation: 503 for everyone"
	if got := m.phasesLine(i, 1000); !strings.HasSuffix(got, want) {
		t.Errorf("at 30s:\n%s\nwant it to end\n%s", got, want)
	}
	short := m.phasesLine(i, 120)
	if len([]rune(short)) > 120 || !strings.HasSuffix(short, " · t=25s no replica in the rotation: 503 for everyone") {
		t.Errorf("in 120 columns: %q, want the newest phase, within 120", short)
	}
	m.advance(32 * time.Second)
	if got := m.phasesLine(i, 1000); !strings.Contains(got, "now: all well · ") || !strings.HasSuffix(got, "t=60s replica 1 back in the rotation") {
		t.Errorf("at 62s: %s", got)
	}
	if !strings.Contains(m.View(), "now: all well") {
		t.Errorf("the view shows no phases line:\n%s", m.View())
	}
}

// healthModelAt30s is a model of docs/scenarios.md's health check example,
// 120×30, advanced to 30s, and the lane whose fleet its phases line shows.
func healthModelAt30s(t *testing.T) (*Model, int) {
	t.Helper()
	doc, err := os.ReadFile("../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	src := regexp.MustCompile("(?s)```yaml\n(description: a health check behind a shared limit that fails closed.*?)```").FindSubmatch(doc)
	if src == nil {
		t.Fatal("docs/scenarios.md has no health check example")
	}
	s, err := scenarios.Parse("health.yaml", src[1])
	if err != nil {
		t.Fatal(err)
	}
	m := newModel(t, []Scenario{{Name: "health", Config: *s.Config}}, 120, 30)
	i := m.phaseLane()
	if i < 0 {
		t.Fatal("no lane with a fleet")
	}
	m.advance(30 * time.Second)
	return m, i
}
