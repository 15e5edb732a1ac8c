package scenarios

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape makes scenario text (names, descriptions, keys, class names) safe to
// show on a terminal: control and other non-printing characters, and bytes that
// are not UTF-8, are written as Go escapes (\x1b, \n, \u202e), so a scenario
// file cannot move the cursor, recolour or retitle the user's terminal. Printable
// text, spaces and backslashes are left as they are.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x` + strconv.FormatUint(uint64(s[i])|0x100, 16)[1:])
		case unicode.IsPrint(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(q[1 : len(q)-1])
		}
		i += size
	}
	return b.String()
}

func needsEscape(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return true
		}
	}
	return false
}
