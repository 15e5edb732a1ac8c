// Command rlsim replays rate-limiting scenarios through every limiting strategy
// side by side and reports what each one did to the traffic.
package main

import (
	"os"

	"github.com/rlsim/rlsim/cmd/rlsim/internal/initquiet"
)

// init runs after every imported package's, Bubble Tea's included, so the
// environment is the user's again before any command (or test) runs.
func init() { initquiet.Restore() }

func main() { os.Exit(mainRun(os.Args[1:], os.Stdout, os.Stderr)) }
