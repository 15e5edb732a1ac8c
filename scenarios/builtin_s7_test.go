package scenarios

import (
	"strings"
	"testing"
)

// A built-in changed by --set says so in its description; the sets that
// write a --config into it do not (changingSets: "--config names itself"),
// so a built-in loaded with a config's sets keeps its shipped description.
func TestBuiltinDescriptionIgnoresConfigSets(t *testing.T) {
	shipped, err := LoadBuiltin("demo")
	if err != nil {
		t.Fatal(err)
	}
	cfg := ConfigSet("limits", "[{name: imported, key: ip, limit: 5, window: 1s}]", "--config nginx.conf")
	s, err := LoadBuiltin("demo", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if s.Config.Limits[0].Name != "imported" {
		t.Fatalf("the config's set was not written: limits %+v", s.Config.Limits)
	}
	if s.Description != shipped.Description {
		t.Errorf("with a config's set: description %q, want the shipped %q", s.Description, shipped.Description)
	}
	set, err := ParseSet("limits[0].limit=5")
	if err != nil {
		t.Fatal(err)
	}
	s, err = LoadBuiltin("demo", cfg, set)
	if err != nil {
		t.Fatal(err)
	}
	if want := "the built-in demo with --set limits[0].limit=5; as shipped: " + shipped.Description; s.Description != want {
		t.Errorf("with a config's set and a --set: description %q, want %q", s.Description, want)
	}
	if strings.Contains(s.Description, "imported") {
		t.Errorf("description %q names the config's limits", s.Description)
	}
}
