package tui

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// TestBudgetStopsThePlaying plays the demo under a budget below its events: the
// view stops there, says so with the figure and the flag, and stays stopped.
func TestBudgetStopsThePlaying(t *testing.T) {
	m, err := New(builtins(t, "demo"), Options{Renderer: monochrome(), MaxEvents: 300})
	if err != nil {
		t.Fatal(err)
	}
	playToEnd(t, m)
	want := "stopped after the budget of 300 events, in lane "
	if !strings.Contains(m.status, want) || !strings.Contains(m.status, "lift the budget with --max-events") {
		t.Errorf("status %q, want it to contain %q and the flag", m.status, want)
	}
	m.Update(tea.WindowSizeMsg{Width: 200, Height: 40})
	if v := m.View(); !strings.Contains(v, want) {
		t.Errorf("the view does not show %q:\n%s", want, v)
	}
	if n := m.sim.Events(); n != 300 {
		t.Errorf("processed %d events, want the budget, 300", n)
	}
	if cmd := send(m, tickMsg{m.gen}); m.sim.Events() != 300 {
		t.Errorf("a tick after the stop ran on (cmd %v)", cmd)
	}
}
