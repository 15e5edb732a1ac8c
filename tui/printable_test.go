package tui

import (
	"strings"
	"testing"
	"unicode"
)

func TestPrintable(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain café ✓", "plain café ✓"},
		{"title\x1b]0;owned\x07", `title\x1b]0;owned\x07`},
		{"clear\x1b[2J", `clear\x1b[2J`},
		{"two\nlines\tand\rback", `two\nlines\tand\rback`},
		{"c1 \u009b6n and \u0085 and del \x7f", `c1 \u009b6n and \u0085 and del \x7f`},
	} {
		if got := printable(tc.in); got != tc.want {
			t.Errorf("printable(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

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
	for _, want := range []string{`demo\x1b]0;owned\x07`, `clears\x1b[2J the screen\nand asks \u009b6n`, `global\x1b[31m`, `status \x1b[H home`} {
		if !strings.Contains(view, want) {
			t.Errorf("the view lacks %q:\n%s", want, view)
		}
	}
}
