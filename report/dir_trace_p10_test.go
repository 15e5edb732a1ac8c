package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// CheckTrace's every answer, with and without --out: each refusal is bad input
// naming the trace and why; each allowed path is nil. TracePath puts a
// relative trace inside the report and leaves an absolute one where it is.
func TestCheckTraceEveryCase(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	folder := filepath.Join(dir, "folder")
	for _, d := range []string{folder, out} { // out exists (empty), so a path inside it has a folder
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		trace, out string
		refuse     string // "" when allowed
	}{
		{folder, "", "is a folder; give a file name"},
		{folder, out, "is a folder; give a file name"},
		{"folder", "", "is a folder; give a file name"}, // relative to the working folder, dir
		{"missing/t.csv", "", "missing is not a folder to write it in"},
		{filepath.Join(dir, "t.csv"), "", ""},
		{"t.csv", "", ""},
		{"t.csv", out, ""},
		{"./t.csv", out, ""}, // cleaned to a bare name
		{"sub/t.csv", out, "a relative --trace names a file inside"},
		{"../t.csv", out, "a relative --trace names a file inside"},
		{"..", out, "a relative --trace names a file inside"},
		{".", out, "a relative --trace names a file inside"},
		{"index.html", out, "writes its own index.html"},
		{"results.json", out, "writes its own results.json"},
		{MarkerName, out, "writes its own " + MarkerName},
		{"plot.png", out, "writes its own plot.png"},
		{"results.jsonl", out, ""},
		{"index.html.csv", out, ""},
		{filepath.Join(dir, "t.csv"), out, ""},
		{filepath.Join(dir, "outside.csv"), out, ""},
		{out, out, "is a folder; give a file name"},
		{"tracepng", out, ""},
		{filepath.Join(out, "t.csv"), out, "is inside --out"},
		{filepath.Join(link, "out", "t.csv"), out, "is inside --out"}, // through a symlink to out's folder
		{filepath.Join(dir, "out2.csv"), out, ""},                     // a sibling sharing out's name as a prefix
		{filepath.Join(dir, "out", "..", "t.csv"), out, ""},
	} {
		err := CheckTrace(tc.trace, tc.out)
		switch {
		case tc.refuse == "" && err != nil:
			t.Errorf("CheckTrace(%q, %q) = %v, want nil", tc.trace, tc.out, err)
		case tc.refuse != "" && (err == nil || !run.IsBadInput(err) || !strings.Contains(err.Error(), tc.refuse) ||
			!strings.HasPrefix(err.Error(), "--trace "+tc.trace+": ")):
			t.Errorf("CheckTrace(%q, %q) = %v, want bad input \"--trace %s: ...%s...\"", tc.trace, tc.out, err, tc.trace, tc.refuse)
		}
	}
	d, err := CreateDir(out)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Abort()
	if got, want := TracePath("./t.csv", d), d.File("t.csv"); got != want {
		t.Errorf("TracePath(./t.csv, out) = %s, want %s", got, want)
	}
	abs := filepath.Join(dir, "t.csv")
	if got := TracePath(abs, d); got != abs {
		t.Errorf("TracePath(%s, out) = %s, want it unchanged", abs, got)
	}
	if got := TracePath("t.csv", nil); got != "t.csv" {
		t.Errorf("TracePath(t.csv, nil) = %s, want t.csv", got)
	}
}
