// Package initquiet keeps Bubble Tea's package initialisation from querying the
// terminal, so that only "rlsim tui" ever does.
//
// Bubble Tea v1's init calls lipgloss.HasDarkBackground, which, when stdout is a
// terminal, writes a background-colour query (OSC 11) and a cursor-position
// request (CSI 6n) and waits for the answers: every rlsim command, "rlsim run"
// into a terminal included, paid stray bytes and a delay on slow links. termenv
// skips the query when the CI environment variable is set, so this package sets
// it during initialisation, and Restore, called by package main's init (which
// runs after every package main imports), puts back the user's value.
//
// Go initialises, at each step, the first package by import path whose imports
// are ready; this one imports only the standard library, so its init runs long
// before termenv's and Bubble Tea's (GODEBUG=inittrace=1 shows the order). The
// test "TestRealBinary/run does not query the terminal" in cmd/rlsim guards it
// with the real binary in a pseudo-terminal.
package initquiet

import "os"

// quietVar is the environment variable that turns termenv's queries off.
const quietVar = "CI"

var userValue, userSet = os.LookupEnv(quietVar)

func init() { os.Setenv(quietVar, "rlsim-init") }

// Restore gives the environment variable its value from before initialisation.
func Restore() {
	if userSet {
		os.Setenv(quietVar, userValue)
	} else {
		os.Unsetenv(quietVar)
	}
}
