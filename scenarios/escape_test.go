package scenarios

import "testing"

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain text, ümlauts and → arrows", "plain text, ümlauts and → arrows"},
		{"red \x1b[31mtext\x1b[0m", `red \x1b[31mtext\x1b[0m`},
		{"title \x1b]0;pwned\x07", `title \x1b]0;pwned\a`},
		{"two\nlines\tand a tab", `two\nlines\tand a tab`},
		{"bidi \u202eevil", `bidi \u202eevil`},
		{"C1 \u009b31m", `C1 \u009b31m`},
		{"bad utf-8 \xff\xfe", `bad utf-8 \xff\xfe`},
		{`a back\slash stays`, `a back\slash stays`},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Escape leaves no control character, so a terminal shows it inert.
func TestEscapeLeavesNoControlCharacter(t *testing.T) {
	for _, in := range []string{"clear\x1b[2J", "two\nlines\tand\rback", "c1 \u009b6n and \u0085 and del \x7f"} {
		for _, r := range Escape(in) {
			if r < 0x20 || (r >= 0x7f && r < 0xa0) {
				t.Errorf("Escape(%q) = %q keeps %U", in, Escape(in), r)
			}
		}
	}
}
