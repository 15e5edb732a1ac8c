//go:build !unix

package web

import "time"

// cpuTime is 0 where the process's CPU time is not read: the benchmarks then
// report no CPU figure.
func cpuTime() time.Duration { return 0 }
