//go:build !unix

package sim

import "time"

// cpuTime is zero where the process's CPU time is not at hand.
func cpuTime() time.Duration { return 0 }
