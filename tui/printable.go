package tui

import (
	"fmt"
	"strings"
	"unicode"
)

// printable shows the control characters of scenario text (a name, a
// description, a limit's name) as Go escapes, \x1b, \n, \u009b, so that a
// scenario file cannot move the cursor, clear the screen, retitle the window or
// break the layout: only the view's own styles send escape sequences.
func printable(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case !unicode.IsControl(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
