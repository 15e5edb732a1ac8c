package tui

import (
	"strings"
	"testing"
)

// phasesLine shows "as many as fit" of the latest phases in width columns
// (its doc): at every width from the bare head's up to past the whole line,
// the line is within the width, its phases are the newest ones in order,
// one more would not fit, and the lane's name is there exactly when it fits
// beside them. Widths at which a phase, or the name, fits to the column are
// among them: a phase that fits exactly is shown.
func TestPhasesLineShowsEveryPhaseThatFits(t *testing.T) {
	m, i := healthModelAt30s(t)

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
