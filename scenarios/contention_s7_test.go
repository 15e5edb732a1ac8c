package scenarios

import (
	"strings"
	"testing"
)

// A contention study's cap below its base is a contradiction
// (docs/scenarios.md); a cap equal to the base is not: every sleep is then
// the base.
func TestContentionCapMayEqualBase(t *testing.T) {
	src := func(c string) []byte {
		return []byte("contention:\n  clients: [10, 20]\n  jitters: [none, full]\n  base: 5ms\n  cap: " + c + "\n  runs: 2\n")
	}
	s, err := Parse("c.yaml", src("5ms"))
	if err != nil {
		t.Fatalf("cap 5ms = base: %v", err)
	}
	if s.Contention == nil || s.Contention.Cap != s.Contention.Base {
		t.Errorf("cap 5ms = base: contention %+v", s.Contention)
	}
	if _, err := Parse("c.yaml", src("4ms")); err == nil || !strings.Contains(err.Error(), "contention.cap") {
		t.Errorf("cap 4ms below base 5ms: %v, want an error at contention.cap", err)
	}
}
