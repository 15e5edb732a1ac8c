package web

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// The README's playground section states the server's caps and speeds: they
// must be the code's.
func TestREADMEStatesTheCaps(t *testing.T) {
	if DefaultMaxClients != 1_000_000 {
		t.Fatalf("DefaultMaxClients is %d: say so in README.md and here", DefaultMaxClients)
	}
	data, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := strings.Join(strings.Fields(string(data)), " ")
	for _, claim := range []string{
		fmt.Sprintf("plays at most %d pages at once", DefaultMaxSessions),
		fmt.Sprintf("takes scenarios of at most %d KB and %s clients", DefaultMaxScenarioBytes>>10, "1,000,000"),
		fmt.Sprintf("speed from %g× to %g×", float64(speeds[0])/10, float64(speeds[len(speeds)-1])/10),
		"listens on loopback unless `--addr` says otherwise",
	} {
		if !strings.Contains(readme, claim) {
			t.Errorf("README.md does not say %q", claim)
		}
	}
}
