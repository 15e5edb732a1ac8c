package report

import (
	"os"
	"strings"
	"testing"
)

// TestDocsNameEveryCSVColumn keeps docs/output.md's CSV section whole.
func TestDocsNameEveryCSVColumn(t *testing.T) {
	doc, err := os.ReadFile("../docs/output.md")
	if err != nil {
		t.Fatal(err)
	}
	_, csvPart, _ := strings.Cut(string(doc), "## CSV")
	csvPart, _, _ = strings.Cut(csvPart, "\n## ")
	words := strings.NewReplacer("`", " ", ",", " ", "\n", " ", "(", " ", ")", " ").Replace(csvPart)
	have := map[string]bool{}
	for _, w := range strings.Fields(words) {
		have[w] = true
	}
	for _, c := range csvColumns(true) {
		if !have[c] {
			t.Errorf("docs/output.md's CSV section does not name the column %s", c)
		}
	}
}
