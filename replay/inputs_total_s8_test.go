package replay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The inputs' total is the sum of the files' sizes, in order; with stdin
// among them it is unknown (-1) whatever comes after.
func TestOpenInputsTotalsTheFiles(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.log"), filepath.Join(dir, "b.log")
	os.WriteFile(a, []byte("123"), 0o644)
	os.WriteFile(b, []byte("12345"), 0o644)
	for _, c := range []struct {
		names []string
		total int64
	}{
		{[]string{a}, 3},
		{[]string{a, b}, 8},
		{[]string{b, a, b}, 13},
		{[]string{a, "-", b}, -1},
		{[]string{"-", a}, -1},
	} {
		inputs, total, closeAll, err := OpenInputs(c.names, strings.NewReader(""))
		if err != nil || total != c.total || len(inputs) != len(c.names) {
			t.Errorf("OpenInputs(%d names) = %d inputs, total %d, %v; want total %d", len(c.names), len(inputs), total, err, c.total)
		}
		for i, in := range inputs {
			if in.Name != c.names[i] {
				t.Errorf("input %d is %s, want %s", i, in.Name, c.names[i])
			}
		}
		closeAll()
	}
}
