package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// Every exit status rlsim --help names is one the code gives: the statuses
// listed in the root's help equal those exitStatus and signalStatus return for
// each kind of end, and each kind maps to the status the help gives it.
func TestEveryDocumentedExitStatusIsGiven(t *testing.T) {
	long := NewCmdRoot(io.Discard, nil).Long
	_, text, ok := strings.Cut(long, "Exit status:")
	if !ok {
		t.Fatal("rlsim --help names no exit status")
	}
	var documented []int
	for _, m := range regexp.MustCompile(`\b\d+\b`).FindAllString(text, -1) {
		n, _ := strconv.Atoi(m)
		documented = append(documented, n)
	}
	cancelled := func(cause error) context.Context {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(cause)
		return ctx
	}
	given := map[string]int{
		"done":                      exitOK,
		"bad input":                 exitStatus(badInputf("--x: bad")),
		"bad input, wrapped":        exitStatus(fmt.Errorf("run: %w", badInputf("--x: bad"))),
		"unknown command":           exitStatus(errors.New(`unknown command "x" for "rlsim"`)),
		"too many arguments":        exitStatus(errors.New("accepts at most 1 arg(s), received 2")),
		"a failed check":            exitStatus(run.CheckFailed(errors.New("rlsim: 1 of 1 checks failed"))),
		"any other failure":         exitStatus(errors.New("write results.json: disk full")),
		"could not finish":          exitStatus(run.CouldNotFinish(errors.New("redis went away"))),
		"could not finish, wrapped": exitStatus(fmt.Errorf("conform: %w", run.CouldNotFinish(errors.New("gone")))),
		"interrupted":               exitStatus(fmt.Errorf("run: %w", context.Canceled)),
		"SIGINT":                    signalStatus(cancelled(stoppedBy{syscall.SIGINT})),
		"SIGTERM":                   signalStatus(cancelled(stoppedBy{syscall.SIGTERM})),
		"SIGHUP":                    signalStatus(cancelled(stoppedBy{syscall.SIGHUP})),
		"cancelled, no signal":      signalStatus(cancelled(nil)),
	}
	want := map[string]int{
		"done": 0, "bad input": 2, "bad input, wrapped": 2, "unknown command": 2, "too many arguments": 2, "a failed check": 1,
		"any other failure": 3, "could not finish": 3, "could not finish, wrapped": 3, "interrupted": 130, "SIGINT": 130, "SIGTERM": 143, "SIGHUP": 129,
		"cancelled, no signal": 130,
	}
	var seen []int
	for kind, got := range given {
		if got != want[kind] {
			t.Errorf("%s: exit status %d, the help says %d", kind, got, want[kind])
		}
		seen = append(seen, got)
	}
	slices.Sort(documented)
	slices.Sort(seen)
	if documented, seen = slices.Compact(documented), slices.Compact(seen); !slices.Equal(documented, seen) {
		t.Errorf("rlsim --help names exit statuses %v, the code gives %v", documented, seen)
	}
}
