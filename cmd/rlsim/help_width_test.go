package main

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/spf13/cobra"
)

// Every line of every command's help fits helpWidth columns.
func TestHelpFitsEightyColumns(t *testing.T) {
	walkCommands(NewCmdRoot(&bytes.Buffer{}, nil), func(path string, c *cobra.Command) {
		var out bytes.Buffer
		c.SetOut(&out)
		if err := c.Help(); err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(out.String(), "\n") {
			if n := utf8.RuneCountInString(line); n > helpWidth {
				t.Errorf("rlsim %s --help, line %d: %d columns: %s", path, i+1, n, line)
			}
			if strings.TrimRight(line, " ") != line {
				t.Errorf("rlsim %s --help, line %d ends in spaces", path, i+1)
			}
		}
	})
}
