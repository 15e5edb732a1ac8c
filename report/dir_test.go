package report

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIndexIsNeverMissingDuringReplacements replaces a report many times while
// a reader polls its index.html: the reader must find one every time, with the
// atomic exchange and with the file-by-file fallback.
func TestIndexIsNeverMissingDuringReplacements(t *testing.T) {
	for _, tc := range []struct {
		name     string
		exchange func(a, b string) error
	}{
		{"exchange", exchange},
		{"file by file", func(a, b string) error { return errors.ErrUnsupported }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			saved := exchange
			exchange = tc.exchange
			defer func() { exchange = saved }()
			dir := filepath.Join(t.TempDir(), "r")
			write := func(i int) {
				d, err := CreateDir(dir)
				if err != nil {
					t.Fatal(err)
				}
				defer d.Abort()
				// Every other report has a plot the next one lacks.
				if i%2 == 0 {
					d.Write("extra.png", []byte("png"))
				}
				if err := errors.Join(d.Write("results.json", []byte("{}")), d.Write("index.html", []byte(fmt.Sprint(i)))); err != nil {
					t.Fatal(err)
				}
				if err := d.Commit(); err != nil {
					t.Fatal(err)
				}
			}
			write(0)
			stop := make(chan struct{})
			missing := make(chan int)
			go func() {
				var reads, misses int
				for {
					select {
					case <-stop:
						missing <- misses
						return
					default:
					}
					if _, err := os.ReadFile(filepath.Join(dir, "index.html")); err != nil {
						misses++
					}
					reads++
				}
			}()
			const replacements = 100
			for i := 1; i <= replacements; i++ {
				write(i)
			}
			close(stop)
			if n := <-missing; n > 0 {
				t.Errorf("index.html was missing %d times during %d replacements", n, replacements)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "index.html")); string(b) != fmt.Sprint(replacements) {
				t.Errorf("index.html = %q, want the last report's", b)
			}
			entries, _ := os.ReadDir(filepath.Dir(dir))
			if len(entries) != 1 {
				t.Errorf("left beside the report: %v", entries)
			}
			if _, err := os.Stat(filepath.Join(dir, "extra.png")); err != nil {
				t.Errorf("the last report's plot: %v", err)
			}
		})
	}
}

// TestCheckDir refuses what a report may not replace, naming the flag, and
// accepts a new or empty folder and an earlier report.
func TestCheckDir(t *testing.T) {
	parent := t.TempDir()
	report := filepath.Join(parent, "report")
	d, err := CreateDir(report)
	if err != nil {
		t.Fatal(err)
	}
	if err := errors.Join(d.Write("index.html", []byte("x")), d.Commit()); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(parent, "empty"), 0o755)
	os.Mkdir(filepath.Join(parent, "mine"), 0o755)
	os.WriteFile(filepath.Join(parent, "mine", "notes.txt"), nil, 0o644)
	os.WriteFile(filepath.Join(parent, "file"), nil, 0o644)
	for _, tc := range []struct{ out, want string }{
		{"new", ""},
		{"empty", ""},
		{"report", ""},
		{"mine", "does not hold an rlsim report (no .rlsim-report file)"},
		{"file", "is a file, not a directory"},
	} {
		err := CheckDir(filepath.Join(parent, tc.out))
		if (tc.want == "") != (err == nil) || (err != nil && (!strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "--out "))) {
			t.Errorf("CheckDir(%s) = %v, want %q", tc.out, err, tc.want)
		}
	}
}
