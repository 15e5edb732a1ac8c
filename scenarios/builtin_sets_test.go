package scenarios

import (
	"strings"
	"testing"
)

// A built-in changed by --set says so in its description; a new seed or
// new checks change nothing it describes.
func TestChangedBuiltinSaysSo(t *testing.T) {
	shipped, err := LoadBuiltin("demo")
	if err != nil {
		t.Fatal(err)
	}
	set, _ := ParseSet("limits[0].limit=20")
	s, err := LoadBuiltin("demo", set)
	if err != nil {
		t.Fatal(err)
	}
	want := "the built-in demo with --set limits[0].limit=20; as shipped: " + shipped.Description
	if s.Description != want {
		t.Errorf("description %q, want %q", s.Description, want)
	}
	seed, _ := ParseSet("seed=7")
	if s, _ := LoadBuiltin("demo", seed); s.Description != shipped.Description {
		t.Errorf("a new seed changed the description to %q", s.Description)
	}
	if s, _ := LoadBuiltin("demo", seed, set); !strings.HasPrefix(s.Description, "the built-in demo with --set limits[0].limit=20;") {
		t.Errorf("with a seed and a limit: %q names the seed or misses the limit", s.Description)
	}
}
