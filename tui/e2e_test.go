package tui

import (
	"bytes"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
)

// TestProgram runs the view as a real Bubble Tea program, on its real clock:
// the lanes fill in, keys reach the model and q ends the program.
func TestProgram(t *testing.T) {
	m, err := New(builtins(t, "demo", "boundary-burst"), Options{Renderer: monochrome()})
	if err != nil {
		t.Fatal(err)
	}
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(100, 30))
	tm.Type("++++") // 20×: the demo's first burst is at 2.8s
	teatest.WaitFor(t, tm.Output(), func(out []byte) bool {
		return bytes.Contains(out, []byte("sliding log")) && bytes.Contains(out, []byte("× OVER"))
	}, teatest.WithDuration(20*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	tm.Send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
	tm.Type("q")
	tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
	final := tm.FinalModel(t).(*Model)
	if !final.paused || final.sim.Now() < 2800*time.Millisecond || speedLabel(speeds[final.speed]) != "20×" {
		t.Errorf("final model: paused %v at t=%v, speed %s; want paused after 2.8s at 20×",
			final.paused, final.sim.Now(), speedLabel(speeds[final.speed]))
	}
}
