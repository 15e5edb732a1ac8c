// Command rlsim replays rate-limiting scenarios through every limiting strategy
// side by side and reports what each one did to the traffic.
package main

import (
	"os"

	"github.com/rlsim/rlsim/cmd/rlsim/internal/initquiet"
)

func main() {
	initquiet.Restore()
	os.Exit(mainRun(os.Args[1:], os.Stdout, os.Stderr))
}
