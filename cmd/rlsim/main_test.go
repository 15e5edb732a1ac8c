package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// TestMain removes what the tests share (the binary, the browsed report) once
// they are done.
func TestMain(m *testing.M) {
	code := m.Run()
	for _, dir := range cleanups.dirs {
		os.RemoveAll(dir)
	}
	os.Exit(code)
}

// cleanups are the folders TestMain removes, added by removeAtExit.
var cleanups struct {
	sync.Mutex
	dirs []string
}

// removeAtExit has TestMain remove dir; parallel tests may call it at once.
func removeAtExit(dir string) {
	cleanups.Lock()
	defer cleanups.Unlock()
	cleanups.dirs = append(cleanups.dirs, dir)
}

// built is the real binary, built at most once per package run and shared by
// every test that plays it (tmux, signals, pseudo-terminal).
var built struct {
	once     sync.Once
	dir, bin string
	err      error
	out      []byte
}

// binary builds rlsim once and returns its path; it skips with -short or
// without a go command.
func binary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary: skipped with -short")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the binary with")
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "rlsim-test-bin-"); built.err != nil {
			return
		}
		removeAtExit(built.dir)
		built.bin = filepath.Join(built.dir, "rlsim")
		// -buildvcs=auto stamps the commit even where GOFLAGS turns it off.
		built.out, built.err = exec.Command(goTool, "build", "-buildvcs=auto", "-o", built.bin, ".").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("go build: %v\n%s", built.err, built.out)
	}
	return built.bin
}
