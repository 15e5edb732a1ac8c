package main

import (
	"errors"
	"os"
	"path/filepath"
)

// reportDir stages a report in a temporary directory beside its target and
// swaps it into place only when every file is written: an error or Ctrl-C leaves
// no half-written report, and an existing report is replaced whole.
type reportDir struct {
	path string // where the report goes
	tmp  string // where it is written first
	done bool
}

// createReportDir refuses a path that holds something other than an rlsim
// report, so that --out never deletes a user's files.
func createReportDir(path string) (*reportDir, error) {
	path = filepath.Clean(path)
	if st, err := os.Stat(path); err == nil {
		if !st.IsDir() {
			return nil, badInputf("--out %s: exists and is not a directory", path)
		}
		entries, err := os.ReadDir(path)
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(filepath.Join(path, "index.html")); len(entries) > 0 && err != nil {
			return nil, badInputf("--out %s: exists and does not hold an rlsim report; choose another directory or empty it", path)
		}
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
	return &reportDir{path: path, tmp: tmp}, nil
}

// File is where the report's file name is written until Commit.
func (d *reportDir) File(name string) string { return filepath.Join(d.tmp, name) }

// Write writes one file of the report.
func (d *reportDir) Write(name string, data []byte) error {
	return os.WriteFile(d.File(name), data, 0o644)
}

// Commit moves the staged report into place, replacing an old one whole.
func (d *reportDir) Commit() error {
	var old string
	if _, err := os.Stat(d.path); err == nil {
		o, err := os.MkdirTemp(filepath.Dir(d.path), "."+filepath.Base(d.path)+".old-")
		if err != nil {
			d.Abort()
			return err
		}
		old = o
		if err := errors.Join(os.Remove(old), os.Rename(d.path, old)); err != nil {
			d.Abort()
			return err
		}
	}
	if err := os.Rename(d.tmp, d.path); err != nil {
		if old != "" {
			os.Rename(old, d.path)
		}
		d.Abort()
		return err
	}
	d.done = true
	if old != "" {
		return os.RemoveAll(old)
	}
	return nil
}

// Abort removes the staged files, unless Commit has already moved them into place.
func (d *reportDir) Abort() {
	if d.done {
		return
	}
	d.done = true
	os.RemoveAll(d.tmp)
}
