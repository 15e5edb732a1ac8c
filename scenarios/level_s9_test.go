package scenarios

import (
	"strings"
	"testing"
)

// Level reads full, empty and whole numbers from 0, and refuses every other
// word or number on both sides of 0 (-1 is full's inner value, not input).
func TestLevelBounds(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Level
	}{{"full", -1}, {"empty", 0}, {"0", 0}, {"1", 1}, {"9223372036854775807", 1<<63 - 1}} {
		var l Level
		if err := l.parseScalar(c.in); err != nil || l != c.want {
			t.Errorf("parseScalar(%q) = %d, %v; want %d, nil", c.in, l, err, c.want)
		}
	}
	for _, in := range []string{"-1", "-2", "1.5", "Full", "", "9223372036854775808"} {
		var l Level
		err := l.parseScalar(in)
		if err == nil || !strings.Contains(err.Error(), "want full, empty or a whole number of cost units from 0") {
			t.Errorf("parseScalar(%q) = %d, %v; want the error naming full, empty and numbers from 0", in, l, err)
		}
	}
}
