package main

import "testing"

// TestWrapLinesAtEachBoundary: a line of width runes stays whole, one longer
// breaks at its last space within width, keeping its indentation on the
// lines it breaks into; a line with no space to break at past its
// indentation is left long. (The space at which a line breaks is never
// its indentation's: TrimLeft took every leading space.)
func TestWrapLinesAtEachBoundary(t *testing.T) {
	for _, c := range []struct {
		name, text string
		width      int
		want       string
	}{
		{"exactly width", "aaaa bbbb", 9, "aaaa bbbb"},
		{"one over", "aaaa bbbbb", 9, "aaaa\nbbbbb"},
		{"the space after width runes is not within it", "aa bb cc dd", 8, "aa bb\ncc dd"},
		{"runes, not bytes", "ééé ééé", 7, "ééé ééé"},
		{"indented", "  aaa bbb ccc", 9, "  aaa\n  bbb ccc"},
		{"indented twice over", "\tx y z w", 4, "\tx\n\ty\n\tz w"},
		{"no space past the indentation", "  abcdefghij", 5, "  abcdefghij"},
		{"the only space ends the indentation", "  abcdefghij klm", 8, "  abcdefghij klm"},
		{"several lines, each its own", "aaaa bbbb\nc d e f g h", 5, "aaaa\nbbbb\nc d\ne f\ng h"},
	} {
		got := wrapLines(c.text, c.width)
		if got != c.want {
			t.Errorf("%s: wrapLines(%q, %d) = %q, want %q", c.name, c.text, c.width, got, c.want)
		}
	}
}
