package scenarios

import (
	"strings"
	"testing"
)

// TestClosestSuggestion_s4: the did-you-mean suggestion ignores case, allows
// up to max(2, len/3) edits of the candidate, and never suggests a candidate
// as far from s as s is long.
func TestClosestSuggestion_s4(t *testing.T) {
	names := []string{"gcra", "token_bucket", "fixed_window"}
	for _, tc := range []struct {
		in, want string
	}{
		{"GCRA", "gcra"},
		{"Token_Bucket", "token_bucket"},
		{"gcr", "gcra"},
		{"tXkXn_XuXket", "token_bucket"}, // 4 edits of 12: len/3
		{"tXkXn_XuXkXt", ""},             // 5 edits
		{"gxxa", "gcra"},                 // 2 edits: the floor of 2
		{"xxxa", ""},                     // 3 edits of 4
		{"gc", ""},                       // 2 edits, but as many as it has letters
	} {
		if got := closest(tc.in, names); got != tc.want {
			t.Errorf("closest(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	if msg := unknownName("GCRA", names); !strings.Contains(msg, `did you mean "gcra"?`) {
		t.Errorf("unknownName(GCRA) = %q, want a suggestion of gcra", msg)
	}
}

// TestEscapeInvalidBytes_s4: a byte that is not UTF-8 is written as \x and two
// hex digits, and so is a control byte.
func TestEscapeInvalidBytes_s4(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"\x05", `\x05`},
		{"a\x80b", `a\x80b`},
		{"\xff", `\xff`},
		{"\xc3", `\xc3`}, // a truncated two-byte sequence
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
