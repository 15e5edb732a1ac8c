package tui

import (
	"strings"
	"testing"
	"time"
)

// TestNewRefusesAnEmptyOrInvalidList: no scenario, or a first one that does
// not validate, is an error naming it; the model plays the first and stops
// at its end, advancing no further once finished.
func TestNewRefusesAnEmptyOrInvalidList(t *testing.T) {
	if m, err := New(nil, Options{Renderer: monochrome()}); err == nil || m != nil || err.Error() != "no scenario to play" {
		t.Errorf("New(nil) = %v, %v", m, err)
	}
	list := builtins(t, "demo")
	list[0].Name, list[0].Config.Duration = "broken", -time.Second
	if _, err := New(list, Options{Renderer: monochrome()}); err == nil || !strings.HasPrefix(err.Error(), "broken: ") {
		t.Errorf("New of an invalid first scenario: %v, want an error naming it", err)
	}
	m, err := New(builtins(t, "demo"), Options{Renderer: monochrome()})
	if err != nil {
		t.Fatal(err)
	}
	m.advance(2 * m.sim.End())
	if m.sim.Now() != m.sim.End() || !m.finished {
		t.Fatalf("advance past the end: now %v of %v, finished %v", m.sim.Now(), m.sim.End(), m.finished)
	}
}
