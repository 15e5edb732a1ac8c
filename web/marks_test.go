package web

import (
	"os"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/sim"
)

// TestPageReadsTheTableOfMarks holds the page's hand-kept copies of sim's
// marks to the table: the script's names in order and the stylesheet's colours.
func TestPageReadsTheTableOfMarks(t *testing.T) {
	js, err := os.ReadFile("assets/app.js")
	if err != nil {
		t.Fatal(err)
	}
	css, err := os.ReadFile("assets/style.css")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for m := range sim.Mark(sim.MarkKinds) {
		info := m.Info()
		names = append(names, `"`+info.Name+`"`)
		if want := "--" + info.Name + ":" + info.Colour + ";"; !strings.Contains(string(css), want) {
			t.Errorf("style.css lacks %s (sim's colour of %s)", want, m)
		}
	}
	if want := "const MARKS = [" + strings.Join(names, ", ") + "];"; !strings.Contains(string(js), want) {
		t.Errorf("app.js lacks %s", want)
	}
}
