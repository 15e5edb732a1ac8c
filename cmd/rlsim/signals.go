package main

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// stopSignals end a run as Ctrl-C does: SIGTERM (kill, a container stopping) and
// SIGHUP (the terminal closing) leave no partial file behind either.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// stoppedBy is the cause of a context cancelled by a signal.
type stoppedBy struct{ sig syscall.Signal }

func (s stoppedBy) Error() string { return "stopped by " + s.sig.String() }

// signalContext is cancelled, with a stoppedBy cause, at the first of stopSignals.
// After it, a second signal has the default effect, so that a stuck run can still
// be killed.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, stopSignals...)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			signal.Stop(ch)
			s, _ := sig.(syscall.Signal)
			cancel(stoppedBy{s})
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// signalStatus is the exit status of a run that a signal stopped, as shells report
// it (128 + the signal's number: 130 for SIGINT, 143 for SIGTERM, 129 for SIGHUP),
// or exitInterrupted when ctx was cancelled otherwise.
func signalStatus(ctx context.Context) int {
	var s stoppedBy
	if errors.As(context.Cause(ctx), &s) {
		return 128 + int(s.sig)
	}
	return exitInterrupted
}
