package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/rlsim/rlsim/run"
)

// MarkerName is the file rlsim writes into every report directory. Its first
// line is markerHeader; each further line names a file of the report. --out
// replaces only a directory holding such a marker and no file it does not list.
const (
	MarkerName   = ".rlsim-report"
	markerHeader = "rlsim report 1"
)

// Dir stages a report folder in a temporary directory beside its target and
// swaps it into place only when every file is written: an error or Ctrl-C leaves
// no half-written report, and an existing report is replaced whole.
type Dir struct {
	path string // where the report goes: absolute, symbolic links resolved
	tmp  string // where it is written first
	done bool
}

// reportPath is the absolute path --out names, through any symbolic link to a
// directory, so that the directory a link points at is replaced, not the link.
func reportPath(out string) (string, error) {
	path, err := filepath.Abs(out)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real, nil
	}
	return path, nil
}

// checkReportDir refuses a path rlsim may not replace: a file, a directory
// holding anything rlsim did not write there. An absent or empty directory is
// fine. out is the path as the user gave it, for the messages.
func checkReportDir(out, path string) error {
	st, err := os.Stat(path)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return run.BadInputf("--out %s: %v", out, err)
	case !st.IsDir():
		return run.BadInputf("--out %s: is a file, not a directory; rlsim writes its report into a new or empty directory, or replaces an earlier report", out)
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return run.BadInputf("--out %s: %v", out, err)
	}
	if len(entries) == 0 {
		return nil
	}
	listed, err := readMarker(filepath.Join(path, MarkerName))
	if err != nil {
		return run.BadInputf("--out %s: exists and does not hold an rlsim report (no %s file); choose another directory or empty it: rlsim never deletes files it did not write", out, MarkerName)
	}
	var foreign []string
	for _, e := range entries {
		if e.Name() != MarkerName && !listed[e.Name()] {
			foreign = append(foreign, e.Name())
		}
	}
	if len(foreign) > 0 {
		return run.BadInputf("--out %s: holds an rlsim report and files it did not write (%s); move them out or choose another directory: rlsim never deletes files it did not write",
			out, strings.Join(foreign, ", "))
	}
	return nil
}

// readMarker reads the names of the files a report's marker lists.
func readMarker(path string) (map[string]bool, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	if !sc.Scan() || sc.Text() != markerHeader {
		return nil, fmt.Errorf("%s: not an rlsim report marker", path)
	}
	listed := map[string]bool{}
	for sc.Scan() {
		if name := sc.Text(); name != "" && filepath.Base(name) == name {
			listed[name] = true
		}
	}
	return listed, sc.Err()
}

// CreateDir checks the target and makes the staging directory beside it.
func CreateDir(out string) (*Dir, error) {
	path, err := reportPath(out)
	if err != nil {
		return nil, run.BadInputf("--out %s: %v", out, err)
	}
	if err := checkReportDir(out, path); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-")
	if err != nil {
		return nil, err
	}
	// MkdirTemp makes the directory private; a report is an ordinary output.
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.Remove(tmp)
		return nil, err
	}
	return &Dir{path: path, tmp: tmp}, nil
}

// File is where the report's file name is written until Commit.
func (d *Dir) File(name string) string { return filepath.Join(d.tmp, name) }

// Write writes one file of the report.
func (d *Dir) Write(name string, data []byte) error {
	return os.WriteFile(d.File(name), data, 0o644)
}

// Commit marks the staged report as rlsim's and moves it into place, replacing
// an old report whole. The target is checked again first: a file put there
// during the run is not deleted either.
func (d *Dir) Commit() error {
	if err := d.writeMarker(); err != nil {
		d.Abort()
		return err
	}
	if err := checkReportDir(d.path, d.path); err != nil {
		d.Abort()
		return err
	}
	// A new or empty target: one rename puts the whole report in place.
	if err := os.Rename(d.tmp, d.path); err == nil {
		d.done = true
		return nil
	}
	err := swapReport(d.tmp, d.path)
	if err != nil {
		d.Abort()
		return err
	}
	d.done = true
	return removeReport(d.tmp)
}

// writeMarker lists every staged file in the marker.
func (d *Dir) writeMarker() error {
	entries, err := os.ReadDir(d.tmp)
	if err != nil {
		return err
	}
	var b strings.Builder
	b.WriteString(markerHeader + "\n")
	for _, e := range entries {
		b.WriteString(e.Name() + "\n")
	}
	return d.Write(MarkerName, []byte(b.String()))
}

// swapReport puts the report staged in tmp at path, which holds an old report,
// so that path/index.html is readable at every instant, and leaves the old
// report's files in tmp.
//
// On Linux one renameat2(RENAME_EXCHANGE) swaps the two directories atomically:
// a reader resolving path/index.html finds either the old directory or the new
// one, both complete. Where the file system cannot exchange, the new files are
// renamed over the old ones one by one, index.html last (each rename(2) replaces
// its target atomically), and the old files the new report lacks are moved to
// tmp: index.html is never missing, though a reader may for a moment see a new
// plot beside the old page.
func swapReport(tmp, path string) error {
	if err := exchange(tmp, path); err == nil {
		return nil
	}
	newFiles, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	oldListed, err := readMarker(filepath.Join(path, MarkerName))
	if err != nil {
		return err
	}
	names := make([]string, 0, len(newFiles))
	for _, e := range newFiles {
		names = append(names, e.Name())
	}
	// index.html last, so that the page appears once its plots are there; the
	// marker just before it.
	slices.SortStableFunc(names, func(a, b string) int { return rank(a) - rank(b) })
	for _, name := range names {
		delete(oldListed, name)
		if err := os.Rename(filepath.Join(tmp, name), filepath.Join(path, name)); err != nil {
			return err
		}
	}
	left := []string{markerHeader}
	for name := range oldListed {
		if err := os.Rename(filepath.Join(path, name), filepath.Join(tmp, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return err
		}
		left = append(left, name)
	}
	// tmp now holds what is left of the old report: mark it so for removeReport.
	return os.WriteFile(filepath.Join(tmp, MarkerName), []byte(strings.Join(left, "\n")+"\n"), 0o644)
}

func rank(name string) int {
	switch name {
	case "index.html":
		return 2
	case MarkerName:
		return 1
	}
	return 0
}

// removeReport removes an old report moved aside by swapReport: the files its
// marker lists and the marker, then the directory, which is left in place, with
// an error saying so, when it holds anything else.
func removeReport(dir string) error {
	listed, _ := readMarker(filepath.Join(dir, MarkerName))
	for name := range listed {
		os.Remove(filepath.Join(dir, name))
	}
	os.Remove(filepath.Join(dir, MarkerName))
	if err := os.Remove(dir); err != nil {
		return fmt.Errorf("the old report was replaced, but %s holds files rlsim did not write; they are left there: %w", dir, err)
	}
	return nil
}

// Abort removes the staged files, unless Commit has already moved them into place.
func (d *Dir) Abort() {
	if d.done {
		return
	}
	d.done = true
	os.RemoveAll(d.tmp)
}
