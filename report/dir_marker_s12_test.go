package report

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// markerPathLines are marker lines that are not a bare file name: each, if
// trusted, would make the report swap move or delete a file outside the report
// directory (or in a subdirectory rlsim never writes).
var markerPathLines = []string{
	"../victim.txt",
	"../other/victim.txt",
	"sub/b.txt",
	"./a.txt",
	"/abs/victim.txt",
}

// TestMarkerLineNamingAPathIsNotTrusted: the marker's doc says each line after
// the header names a file of the report; a line holding a path is not such a
// name and is not listed, whatever its form.
func TestMarkerLineNamingAPathIsNotTrusted(t *testing.T) {
	marker := filepath.Join(t.TempDir(), MarkerName)
	lines := append([]string{markerHeader, "a.txt", ""}, markerPathLines...)
	lines = append(lines, "index.html")
	if err := os.WriteFile(marker, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	listed, err := readMarker(marker)
	if err != nil {
		t.Fatal(err)
	}
	if got := slices.Sorted(maps.Keys(listed)); !slices.Equal(got, []string{"a.txt", "index.html"}) {
		t.Errorf("readMarker lists %q, want only the bare names [a.txt index.html]", got)
	}
	for _, p := range markerPathLines {
		if listed[p] {
			t.Errorf("readMarker trusts the path %q", p)
		}
	}
}

// TestCommitOverAReportNeverTouchesAFileItsMarkerNamesByPath: an old report
// whose marker lists paths reaching outside it (../victim.txt, a sibling
// directory's file, an absolute path) is replaced, and every one of those files
// is still there with its content, in both lanes of the swap: the atomic
// exchange and the file-by-file renames where the file system cannot exchange.
// rlsim never deletes a file it did not write.
func TestCommitOverAReportNeverTouchesAFileItsMarkerNamesByPath(t *testing.T) {
	for _, lane := range []struct {
		name     string
		exchange func(a, b string) error
	}{
		{"exchange", exchange},
		{"file by file", func(a, b string) error { return errors.ErrUnsupported }},
	} {
		t.Run(lane.name, func(t *testing.T) {
			saved := exchange
			exchange = lane.exchange
			t.Cleanup(func() { exchange = saved })

			parent := t.TempDir()
			out := filepath.Join(parent, "report")
			abs := filepath.Join(t.TempDir(), "victim.txt")
			victims := map[string]string{
				filepath.Join(parent, "victim.txt"):          "../victim.txt",
				filepath.Join(parent, "other", "victim.txt"): "../other/victim.txt",
				abs: abs,
			}
			for path := range victims {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte("not rlsim's"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Mkdir(out, 0o755); err != nil {
				t.Fatal(err)
			}
			lines := []string{markerHeader, "old.txt"}
			for _, line := range victims {
				lines = append(lines, line)
			}
			if err := os.WriteFile(filepath.Join(out, MarkerName), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(out, "old.txt"), []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}

			d := stage(t, out, "index.html", "new.txt")
			if err := d.Commit(); err != nil {
				t.Fatalf("Commit over a report whose marker names paths: %v", err)
			}
			if got := dirNames(t, out); !slices.Equal(got, []string{MarkerName, "index.html", "new.txt"}) {
				t.Errorf("the report holds %v, want [%s index.html new.txt]", got, MarkerName)
			}
			for path, line := range victims {
				b, err := os.ReadFile(path)
				if err != nil || string(b) != "not rlsim's" {
					t.Errorf("marker line %q: %s after Commit = %q, %v; want it untouched", line, path, b, err)
				}
			}
			if got := dirNames(t, parent); !slices.Equal(got, []string{"other", "report", "victim.txt"}) {
				t.Errorf("the parent holds %v, want [other report victim.txt] (no staging left)", got)
			}
		})
	}
}
