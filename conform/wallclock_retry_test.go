package conform

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// wallClockTry is one run of a test that compares rules with a real server on
// the wall clock. Its errors are kept, not reported, so that a run a loaded
// machine delayed past a millisecond can be tried once more; everything else
// (logs, cleanups, temporary directories) goes to the test itself.
type wallClockTry struct {
	testing.TB
	errs    []string
	skipped string
}

func (w *wallClockTry) Error(args ...any) { w.errs = append(w.errs, fmt.Sprint(args...)) }
func (w *wallClockTry) Errorf(format string, args ...any) {
	w.errs = append(w.errs, fmt.Sprintf(format, args...))
}
func (w *wallClockTry) Fail()        { w.errs = append(w.errs, "failed") }
func (w *wallClockTry) Failed() bool { return len(w.errs) > 0 }
func (w *wallClockTry) FailNow() {
	if len(w.errs) == 0 {
		w.Fail()
	}
	runtime.Goexit()
}
func (w *wallClockTry) Fatal(args ...any) { w.Error(args...); runtime.Goexit() }
func (w *wallClockTry) Fatalf(format string, args ...any) {
	w.Errorf(format, args...)
	runtime.Goexit()
}
func (w *wallClockTry) Skip(args ...any) { w.skipped = fmt.Sprint(args...); runtime.Goexit() }
func (w *wallClockTry) Skipf(format string, args ...any) {
	w.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (w *wallClockTry) SkipNow() { w.skipped = "skipped"; runtime.Goexit() }

// onceMoreOnTheWallClock runs body, and once more on a fresh start when the
// first run failed: the comparison is on the wall clock, which the whole suite
// at once on 2 cores can delay past a millisecond between a client's send and
// the server's clock. A rule that is wrong fails both runs, and then every
// error of the second is the test's; the first run's errors are logged.
func onceMoreOnTheWallClock(t *testing.T, body func(t testing.TB)) {
	t.Helper()
	for try := 1; try <= 2; try++ {
		w := runWallClockTry(t, body)
		switch {
		case w.skipped != "":
			t.Skip(w.skipped)
		case !w.Failed():
			return
		case try == 1:
			t.Logf("first run, on the wall clock of a loaded machine: %d errors, running once more:\n%s",
				len(w.errs), strings.Join(w.errs, "\n"))
		default:
			for _, e := range w.errs {
				t.Error(e)
			}
		}
	}
}

// runWallClockTry runs body on its own goroutine, so that a Fatal or a Skip
// ends the run (runtime.Goexit), not the test.
func runWallClockTry(t testing.TB, body func(t testing.TB)) *wallClockTry {
	w := &wallClockTry{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(w)
	}()
	<-done
	return w
}

func TestOnceMoreOnTheWallClockRunsAFailedRunOnceMore(t *testing.T) {
	var runs int
	onceMoreOnTheWallClock(t, func(t testing.TB) {
		runs++
		if runs == 1 {
			t.Fatalf("late by %d ms", 2)
		}
	})
	if runs != 2 {
		t.Errorf("%d runs, want 2: the first failed", runs)
	}
	w := runWallClockTry(t, func(t testing.TB) {
		t.Errorf("one")
		t.Fatal("two")
		t.Errorf("not reached")
	})
	if got := strings.Join(w.errs, "|"); got != "one|two" {
		t.Errorf("errors %q, want one|two (Fatal ends the run)", got)
	}
	ok := runWallClockTry(t, func(t testing.TB) {})
	if ok.Failed() || ok.skipped != "" {
		t.Errorf("a clean run failed (%v) or skipped (%q)", ok.errs, ok.skipped)
	}
	sk := runWallClockTry(t, func(t testing.TB) { t.Skipf("no %s", "nginx"); t.Errorf("not reached") })
	if sk.skipped != "no nginx" || sk.Failed() {
		t.Errorf("skip %q, errors %v", sk.skipped, sk.errs)
	}
}
