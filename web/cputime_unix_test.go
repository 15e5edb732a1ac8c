//go:build unix

package web

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time (user and system) the process has used so far, so
// that a benchmark on a shared machine can report its cost apart from the
// time it waited for a core.
func cpuTime() time.Duration {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}
