package main

import (
	"io"

	"github.com/charmbracelet/x/term"
)

// terminalWidth is the width in columns of the terminal w writes to, or 0 when
// w is not a terminal (a file, a pipe, a test's buffer): then the table keeps
// its full, stable layout. It asks the kernel (an ioctl), never the terminal
// itself, so no query escape sequence is sent.
func terminalWidth(w io.Writer) int {
	f, ok := fileOf(w)
	if !ok || !term.IsTerminal(f.Fd()) {
		return 0
	}
	width, _, err := term.GetSize(f.Fd())
	if err != nil || width <= 0 {
		return 0
	}
	return width
}
