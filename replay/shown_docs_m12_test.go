package replay

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestShownAndWarnShareAreTheDocs: docs/replay.md says how many bad lines
// are shown ("the first five", in both places it says it) and the share of
// bad lines above which a replay warns ("more than 10%"); MaxShown and
// BadShareWarn are those figures.
func TestShownAndWarnShareAreTheDocs(t *testing.T) {
	doc, err := os.ReadFile("../docs/replay.md")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(doc)), " ")
	words := map[string]int{"three": 3, "four": 4, "five": 5, "six": 6, "ten": 10}
	shown := regexp.MustCompile(`the first (\w+) (?:are shown|bad lines)`).FindAllStringSubmatch(text, -1)
	if len(shown) < 2 {
		t.Fatalf("found %d statements of the bad lines shown, want 2", len(shown))
	}
	for _, s := range shown {
		if words[s[1]] != MaxShown {
			t.Errorf("docs/replay.md: %q, MaxShown %d", s[0], MaxShown)
		}
	}
	if !strings.Contains(text, "when **more than 10%** of the lines read") || BadShareWarn != 0.10 {
		t.Errorf("BadShareWarn %v, docs/replay.md says more than 10%%", BadShareWarn)
	}
}
