package report

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// hostile is a scenario whose every piece of free text carries terminal escapes.
const hostile = "description: \"set the title \\e]0;pwned\\a and go red \\e[31m\"\n" +
	"duration: 2s\n" +
	"limits:\n  - name: \"lim\\e[2J\"\n    key: user\n    limit: 2\n    window: 1s\n" +
	"clients:\n" +
	"  - name: \"users\\e[31m\"\n    count: 2\n    identity:\n      user: \"u\\e[1m{i}\"\n" +
	"    arrivals:\n      - kind: constant\n        rate: 10/s\n" +
	"  - name: \"other\\u202e\"\n    identity:\n      user: quiet\n" +
	"    arrivals:\n      - kind: constant\n        rate: 1/s\n"

// No control character from a scenario file reaches the table, the findings or
// the HTML raw: each appears escaped, at every width.
func TestScenarioTextIsEscapedEverywhere(t *testing.T) {
	s, err := scenarios.Parse("hostile.yaml", []byte(hostile))
	if err != nil {
		t.Fatal(err)
	}
	r, err := sim.Run(context.Background(), *s.Config, sim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	run := Run{Scenario: s, Result: &r}
	outputs := map[string]*bytes.Buffer{"wide table": {}, "80-column table": {}, "html": {}}
	if err := WriteTable(outputs["wide table"], []Run{run}); err != nil {
		t.Fatal(err)
	}
	if err := WriteTableFit(outputs["80-column table"], []Run{run}, 80); err != nil {
		t.Fatal(err)
	}
	if err := WriteHTML(outputs["html"], []Page{{Run: run}}); err != nil {
		t.Fatal(err)
	}
	// The script's data is JSON, where the names stay exact for the script
	// (encoding/json writes control characters as \u escapes); the check is of
	// the page's text.
	outputs["html"] = bytes.NewBufferString(regexp.MustCompile(`(?s)<script.*?</script>`).ReplaceAllString(outputs["html"].String(), ""))
	outputs["findings"] = bytes.NewBufferString(strings.Join(Findings(r), "|"))
	for name, b := range outputs {
		for _, c := range b.String() {
			if (c < 0x20 && c != '\n' && c != '\t' && c != '\r') || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\u202e' {
				t.Errorf("%s holds a raw %U", name, c)
				break
			}
		}
		if name != "findings" && !strings.Contains(b.String(), `\x1b[31m`) {
			t.Errorf("%s does not show the escaped class name or description", name)
		}
	}
}
