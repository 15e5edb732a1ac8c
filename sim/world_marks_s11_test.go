package sim

import (
	"os"
	"strings"
	"testing"
)

// TestMarkColoursAreTheREADMEs: the README says in which of the terminal's
// eight colours each mark is drawn, and which are bold; the mark table draws
// them so.
func TestMarkColoursAreTheREADMEs(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(readme)), " ")
	const lead = "Colours say the same, in the terminal's own palette: "
	i := strings.Index(text, lead)
	if i < 0 {
		t.Fatalf("the README does not say %q", lead)
	}
	said := text[i+len(lead):]
	said = said[:strings.Index(said, ";")]
	ansiName := map[string]string{"0": "black", "1": "red", "2": "green", "3": "yellow", "4": "blue", "5": "magenta", "6": "cyan", "7": "white"}
	var want []string
	for m := range MarkKinds {
		info := Mark(m).Info()
		w := info.Name + " " + ansiName[info.ANSI]
		if info.Bold {
			w += " (bold)"
		}
		want = append(want, w)
	}
	if got := strings.Join(want, ", "); said != got {
		t.Errorf("the README says the marks are drawn %q; the mark table draws them %q", said, got)
	}
}
