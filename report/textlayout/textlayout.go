// Package textlayout lays text out for the terminal: aligned tables that fit a
// width (Table) and lines wrapped between words (Wrap). rlsim run's and rlsim
// sweep's tables, replay's and rlsim scenarios' list are laid out with it.
package textlayout

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"
)

// Table lays out text columns: the first left-aligned, the rest right-aligned.
type Table struct {
	Head []string
	// Text left-aligns every column; otherwise only the first is, and the rest,
	// numbers, are right-aligned.
	Text bool
	// Left is how many leading columns are left-aligned text; 0 means 1.
	Left int
	rows [][]string
}

// Add appends a row.
func (t *Table) Add(cells ...string) { t.rows = append(t.rows, cells) }

// Rows are the rows added, without the head.
func (t *Table) Rows() [][]string { return t.rows }

// widths are the columns' widths in runes.
func (t *Table) widths() []int {
	widths := make([]int, len(t.Head))
	for _, row := range append([][]string{t.Head}, t.rows...) {
		for i, c := range row {
			if i < len(widths) {
				widths[i] = max(widths[i], utf8.RuneCountInString(c))
			}
		}
	}
	return widths
}

// Width is the width of the widest line Write prints, in runes.
func (t *Table) Width() int {
	n := 0
	for i, w := range t.widths() {
		if i > 0 {
			n += 2
		}
		n += w
	}
	return n
}

// Fit drops columns until the table is at most width wide: first the columns
// with nothing to say (every cell "0", "-" or empty), then those named in drop,
// in order. The first column always stays. width 0 or less keeps everything.
func (t *Table) Fit(width int, drop []string) *Table {
	if width <= 0 {
		return t
	}
	for i := len(t.Head) - 1; i > 0 && t.Width() > width; i-- {
		if t.silent(i) {
			t.remove(i)
		}
	}
	for _, name := range drop {
		if t.Width() <= width {
			break
		}
		if i := slices.Index(t.Head, name); i > 0 {
			t.remove(i)
		}
	}
	return t
}

// silent is true when every cell of column i is "0", "-" or empty.
func (t *Table) silent(i int) bool {
	for _, row := range t.rows {
		if i < len(row) && row[i] != "0" && row[i] != "-" && row[i] != "" {
			return false
		}
	}
	return true
}

func (t *Table) remove(i int) {
	t.Head = slices.Delete(t.Head, i, i+1)
	for r, row := range t.rows {
		if i < len(row) {
			t.rows[r] = slices.Delete(row, i, i+1)
		}
	}
	if i < t.Left {
		t.Left--
	}
}

// Write prints the head and the rows.
func (t *Table) Write(w io.Writer) {
	widths := t.widths()
	for _, row := range append([][]string{t.Head}, t.rows...) {
		var b strings.Builder
		for i := range widths {
			c := ""
			if i < len(row) {
				c = row[i]
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			switch {
			case i == 0:
				b.WriteString(c + pad)
			case t.Text || i < t.Left:
				b.WriteString("  " + c + pad)
			default:
				b.WriteString("  " + pad + c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}

// Wrap prints text after first, breaking it between words so no line
// is wider than width; continuation lines start with indent. A word longer
// than a line stands alone on its line. width 0 or less: one line.
func Wrap(w io.Writer, text, first, indent string, width int) {
	if width <= 0 {
		fmt.Fprintf(w, "%s%s\n", first, text)
		return
	}
	line, n := first, utf8.RuneCountInString(first)
	fresh := true
	for _, word := range strings.Fields(text) {
		wn := utf8.RuneCountInString(word)
		if !fresh && n+1+wn > width {
			fmt.Fprintln(w, line)
			line, n, fresh = indent, utf8.RuneCountInString(indent), true
		}
		if !fresh {
			line += " "
			n++
		}
		line += word
		n += wn
		fresh = false
	}
	fmt.Fprintln(w, line)
}
