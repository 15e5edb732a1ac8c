package main

import (
	"bytes"
	"strings"
	"testing"
)

// --from and --strict say how to read a --config: without one they are bad
// input (exit 2), --strict alone as --from alone (configFlags.load).
func TestStrictWithoutConfigIsBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"validate", "demo", "--strict"},
		{"validate", "demo", "--from", "nginx"},
		{"run", "demo", "--strict", "--format", "json"},
	} {
		var out, errOut bytes.Buffer
		if code := mainRun(args, &out, &errOut); code != exitBadInput || !strings.Contains(errOut.String(), "--from and --strict need --config") {
			t.Errorf("rlsim %s: exit %d, stderr %q; want 2 saying they need --config", strings.Join(args, " "), code, errOut.String())
		}
	}
	var out, errOut bytes.Buffer
	if code := mainRun([]string{"validate", "demo", "--from", "auto"}, &out, &errOut); code != exitOK {
		t.Errorf("rlsim validate demo --from auto (the default): exit %d, %q; want 0", code, errOut.String())
	}
}
