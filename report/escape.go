package report

import (
	"strings"

	"github.com/rlsim/rlsim/scenarios"
)

// escapeLines is scenarios.Escape for text of several lines, such as a scenario
// file shown as written: each line escaped, the line breaks kept.
func escapeLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = scenarios.Escape(l)
	}
	return strings.Join(lines, "\n")
}
