package textlayout

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func write(t *Table) string {
	var b bytes.Buffer
	t.Write(&b)
	return b.String()
}

func TestWriteAlignsTextLeftAndNumbersRight(t *testing.T) {
	tab := &Table{Head: []string{"lane", "name", "n"}}
	tab.Add("a", "x", "5")
	tab.Add("bbbbbb", "yyyy", "123")
	want := "" +
		"lane    name    n\n" +
		"a          x    5\n" +
		"bbbbbb  yyyy  123\n"
	if got := write(tab); got != want {
		t.Errorf("numbers right-aligned:\n%q\nwant\n%q", got, want)
	}
	tab.Left = 2
	want = "" +
		"lane    name    n\n" +
		"a       x       5\n" +
		"bbbbbb  yyyy  123\n"
	if got := write(tab); got != want {
		t.Errorf("Left 2:\n%q\nwant\n%q", got, want)
	}
	tab.Left, tab.Text = 0, true
	want = "" +
		"lane    name  n\n" +
		"a       x     5\n" +
		"bbbbbb  yyyy  123\n"
	if got := write(tab); got != want {
		t.Errorf("Text:\n%q\nwant\n%q", got, want)
	}
}

func TestWriteCountsRunesAndPadsShortRows(t *testing.T) {
	tab := &Table{Head: []string{"é", "n", "m"}}
	tab.Add("ééé", "1")
	want := "" +
		"é    n  m\n" +
		"ééé  1\n"
	if got := write(tab); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	if got := tab.Width(); got != 3+2+1+2+1 {
		t.Errorf("Width = %d, want 9", got)
	}
	if rows := tab.Rows(); len(rows) != 1 || rows[0][0] != "ééé" {
		t.Errorf("Rows = %q", rows)
	}
}

func TestWidthIsTheWidestLineWritten(t *testing.T) {
	tab := &Table{Head: []string{"lane", "limit", "x"}}
	tab.Add("a-long-lane", "1", "12345")
	tab.Add("b", "100000", "")
	widest := 0
	for _, line := range strings.Split(strings.TrimSuffix(write(tab), "\n"), "\n") {
		widest = max(widest, utf8.RuneCountInString(line))
	}
	if tab.Width() != widest {
		t.Errorf("Width = %d, widest line written %d", tab.Width(), widest)
	}
}

func fitTable() *Table {
	tab := &Table{Head: []string{"lane", "a", "zero", "b", "dash"}, Left: 3}
	tab.Add("one", "11", "0", "22", "-")
	tab.Add("two", "33", "", "44", "0")
	return tab
}

func TestFitDropsSilentColumnsFirstThenNamed(t *testing.T) {
	full := fitTable().Width() // 4+2+2+2+4+2+2+2+4 = 24
	if full != 24 {
		t.Fatalf("full width %d, want 24", full)
	}
	cases := []struct {
		width int
		drop  []string
		head  string
	}{
		{0, []string{"a"}, "lane a zero b dash"},
		{-1, nil, "lane a zero b dash"},
		{24, []string{"a"}, "lane a zero b dash"},
		// One silent column too many: the last silent one goes first.
		{23, nil, "lane a zero b"},
		{18, nil, "lane a zero b"},
		{17, nil, "lane a b"},
		// Silent columns gone, named ones next, in the order given.
		{11, []string{"b", "a"}, "lane a"},
		{8, []string{"b", "a"}, "lane a"},
		{7, []string{"b", "a"}, "lane"},
		{1, []string{"lane", "nosuch"}, "lane a b"},
	}
	for _, c := range cases {
		tab := fitTable().Fit(c.width, c.drop)
		if got := strings.Join(tab.Head, " "); got != c.head {
			t.Errorf("Fit(%d, %q) kept %q, want %q", c.width, c.drop, got, c.head)
		}
		for _, row := range tab.Rows() {
			if len(row) != len(tab.Head) {
				t.Errorf("Fit(%d, %q): row %q under head %q", c.width, c.drop, row, tab.Head)
			}
		}
	}
}

func TestFitKeepsLeftInStepWithRemovedColumns(t *testing.T) {
	tab := &Table{Head: []string{"lane", "a", "zero", "b"}, Left: 2}
	tab.Add("one", "1", "0", "22")
	tab.Add("two", "333", "-", "4")
	// Removing "zero", the first right-aligned column, leaves "a" left-aligned.
	tab.Fit(tab.Width()-1, nil)
	if tab.Left != 2 {
		t.Errorf("Left = %d after removing a column at Left, want 2", tab.Left)
	}
	want := "" +
		"lane  a     b\n" +
		"one   1    22\n" +
		"two   333   4\n"
	if got := write(tab); got != want {
		t.Errorf("got\n%q\nwant\n%q", got, want)
	}
	// Removing a left-aligned column moves Left with it: "b" stays right-aligned.
	tab = &Table{Head: []string{"lane", "a", "b"}, Left: 2}
	tab.Add("one", "1", "22")
	tab.Add("two", "333", "4")
	tab.Fit(1, []string{"a"})
	want = "" +
		"lane   b\n" +
		"one   22\n" +
		"two    4\n"
	if got := write(tab); got != want || tab.Left != 1 {
		t.Errorf("Left %d, got\n%q\nwant\n%q", tab.Left, got, want)
	}
}

func TestFitKeepsAColumnWithOneWord(t *testing.T) {
	tab := &Table{Head: []string{"lane", "n"}}
	tab.Add("a", "0")
	tab.Add("b", "x")
	if tab.Fit(1, nil); len(tab.Head) != 2 {
		t.Errorf("a column with one cell not 0, - or empty was dropped: %q", tab.Head)
	}
}

func wrap(text, first, indent string, width int) string {
	var b bytes.Buffer
	Wrap(&b, text, first, indent, width)
	return b.String()
}

func TestWrapBreaksBetweenWordsAtTheWidth(t *testing.T) {
	cases := []struct {
		text, first, indent string
		width               int
		want                string
	}{
		{"aa bb cc", "", "", 0, "aa bb cc\n"},
		{"aa bb cc", "> ", "", -3, "> aa bb cc\n"},
		{"aa bb cc", "", "", 8, "aa bb cc\n"},
		{"aa bb cc", "", "", 7, "aa bb\ncc\n"},
		{"aa bb cc", "", "", 5, "aa bb\ncc\n"},
		{"aa bb cc", "", "", 4, "aa\nbb\ncc\n"},
		{"aa bb cc", "- ", "  ", 7, "- aa bb\n  cc\n"},
		{"aa bb cc", "- ", "  ", 6, "- aa\n  bb\n  cc\n"},
		{"toolongword x", "", "", 4, "toolongword\nx\n"},
		{"x toolongword", "- ", "  ", 4, "- x\n  toolongword\n"},
		{"  spaced   out  ", "", "", 80, "spaced out\n"},
		{"éé éé", "", "", 5, "éé éé\n"},
		{"", "title", "", 10, "title\n"},
	}
	for _, c := range cases {
		if got := wrap(c.text, c.first, c.indent, c.width); got != c.want {
			t.Errorf("Wrap(%q, %q, %q, %d) = %q, want %q", c.text, c.first, c.indent, c.width, got, c.want)
		}
	}
}

func TestWrapNeverWiderThanWidthUnlessOneWord(t *testing.T) {
	text := "the quick brown fox jumps over the lazy dog and keeps on running far away"
	for width := 1; width <= 40; width++ {
		out := wrap(text, "* ", "  ", width)
		words := 0
		for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
			fields := strings.Fields(line)
			words += len(fields)
			if n := utf8.RuneCountInString(line); n > width && len(fields) > 1 && !(len(fields) == 2 && fields[0] == "*") {
				t.Errorf("width %d: line %q is %d wide", width, line, n)
			}
		}
		if want := len(strings.Fields(text)) + 1; words != want {
			t.Errorf("width %d: %d words written, want %d", width, words, want)
		}
	}
}
