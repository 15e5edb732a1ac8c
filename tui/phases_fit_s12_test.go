package tui

import (
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
)

// phasesLine shows "as many as fit" of the latest phases in width columns
// (its doc): at every width from the bare head's up to past the whole line,
// the line is within the width, its phases are the newest ones in order,
// one more would not fit, and the lane's name is there exactly when it fits
// beside them. Widths at which a phase, or the name, fits to the column are
// among them: a phase that fits exactly is shown.
func TestPhasesLineShowsEveryPhaseThatFits(t *testing.T) {
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

	// The whole line, every phase and the name, and its parts.
	full := m.phasesLine(i, 1<<20)
	parts := strings.Split(full, " · t=")
	named := parts[0]
	now := strings.Index(named, " now: ")
	if !strings.HasPrefix(named, "fleet (") || now < 0 {
		t.Fatalf("the whole line's head %q, want fleet (lane) now: …", named)
	}
	bare := "fleet" + named[now:]
	var phases []string // oldest first, each with its " · t=" lead
	for _, p := range parts[1:] {
		phases = append(phases, " · t="+p)
	}
	if len(phases) != 8 {
		t.Fatalf("the whole line has %d phases, want the health example's 8 at 30s: %q", len(phases), full)
	}
	cols := func(s string) int { return len([]rune(s)) }
	nameCols := cols(named) - cols(bare)

	for w := cols(bare); w <= cols(full)+1; w++ {
		got := m.phasesLine(i, w)
		if cols(got) > w {
			t.Errorf("width %d: %d columns: %q", w, cols(got), got)
		}
		// Which newest phases fit: as many as the bare head leaves room for.
		k, used := 0, cols(bare)
		for k < len(phases) && used+cols(phases[len(phases)-1-k]) <= w {
			used += cols(phases[len(phases)-1-k])
			k++
		}
		head := bare
		if used+nameCols <= w {
			head = named
		}
		if want := head + strings.Join(phases[len(phases)-k:], ""); got != want {
			t.Errorf("width %d:\n got %q\nwant %q (the newest %d phases)", w, got, want, k)
		}
	}
}
