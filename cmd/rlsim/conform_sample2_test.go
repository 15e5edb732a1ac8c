package main

import (
	"strings"
	"testing"
)

// --show takes 0 to maxShow, both ends: at maxShow conform goes on to its next
// check (here the real-time bound), beyond it the flag is refused.
func TestConformShowUpToMax(t *testing.T) {
	base := []string{"conform", "--redis", "127.0.0.1:1", "--time-scale", "1", "--replicas", "1,4", "--max-wall", "1m"}
	for _, tc := range []struct {
		show   string
		refuse bool
	}{{"1000000", false}, {"0", false}, {"1000001", true}} {
		code, _, errOut := execute(t, append(base, "--show", tc.show, "demo")...)
		if code != exitBadInput || strings.Contains(errOut, "--show") != tc.refuse {
			t.Errorf("--show %s: exit %d, stderr %q; want refused %v", tc.show, code, errOut, tc.refuse)
		}
	}
}
