package main

import (
	"fmt"
	"io"
	"os"
)

// checkedWriter remembers the first error writing to standard output, so that
// every command, help included, fails with one clear message when its output is
// lost (a full disk, `>/dev/full`, a closed pipe) instead of exiting 0.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

// failure is the message and status of a lost output, or ok false.
func (c *checkedWriter) failure() (msg string, ok bool) {
	if c.err == nil {
		return "", false
	}
	return fmt.Sprintf("rlsim: writing the output failed: %v", c.err), true
}

// fileOf is the file behind w, when w writes to one: the terminal checks and the
// live view need the file itself.
func fileOf(w io.Writer) (*os.File, bool) {
	if c, ok := w.(*checkedWriter); ok {
		w = c.w
	}
	f, ok := w.(*os.File)
	return f, ok
}
