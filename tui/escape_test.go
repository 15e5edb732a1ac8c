package tui

import (
	"strings"
	"testing"
	"unicode"
)

// TestViewEscapesScenarioText plays a scenario whose name, description and limit
// name carry escape sequences: the monochrome view must send none of them.
func TestViewEscapesScenarioText(t *testing.T) {
	list := builtins(t, "demo")
	list[0].Name = "demo\x1b]0;owned\x07"
	list[0].Description = "clears\x1b[2J the screen\nand asks \u009b6n"
	list[0].Config.Limits[0].Name = "global\x1b[31m"
	m := newModel(t, list, 120, 40)
	send(m, tickMsg{m.gen})
	m.status = "status \x1b[H home"
	view := m.View()
	if i := strings.IndexFunc(view, func(r rune) bool { return unicode.IsControl(r) && r != '\n' }); i >= 0 {
		t.Errorf("the view sends a control character %q at byte %d:\n%s", view[i:i+1], i, view)
	}
	for _, want := range []string{`demo\x1b]0;owned\a`, `clears\x1b[2J the screen\nand asks \u009b6n`, `global\x1b[31m`, `status \x1b[H home`} {
		if !strings.Contains(view, want) {
			t.Errorf("the view lacks %q:\n%s", want, view)
		}
	}
}
