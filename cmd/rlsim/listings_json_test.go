package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
)

// rlsim scenarios -o json lists every built-in, in order, with its description.
func TestScenariosJSON(t *testing.T) {
	code, out, _ := execute(t, "scenarios", "-o", "json")
	var doc struct {
		Scenarios []builtinJSON `json:"scenarios"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("scenarios -o json: exit %d, %.100s", code, out)
	}
	var names []string
	for i, b := range doc.Scenarios {
		names = append(names, b.Name)
		if b.Description != scenarios.Builtins()[i].Description {
			t.Errorf("%s: description %q", b.Name, b.Description)
		}
	}
	if !slices.Equal(names, scenarios.BuiltinNames()) {
		t.Errorf("scenarios -o json names %v, want %v", names, scenarios.BuiltinNames())
	}
}

// rlsim validate -o json gives each file with its problems as objects, at
// their lines and fields, and keeps validate's exit status.
func TestValidateJSON(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("seed: 1\nclients: [{count: 0, arrivals: [{kind: burst, count: 1}]}]\n"), 0o644)
	code, out, _ := execute(t, "validate", bad, "demo", "-o", "json")
	var doc struct {
		Files []validatedFile `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || code != exitBadInput || len(doc.Files) != 2 {
		t.Fatalf("validate -o json: exit %d, %v: %s", code, err, out)
	}
	f := doc.Files[0]
	want := problemObject{File: bad, Line: 2, Path: "clients[0].count", Message: "must be positive, got 0"}
	if f.OK || len(f.Errors) != 1 || f.Errors[0] != want {
		t.Errorf("the bad file: %+v, want one error %+v", f, want)
	}
	if g := doc.Files[1]; !g.OK || len(g.Errors) != 0 || g.File != "demo.yaml" {
		t.Errorf("demo: %+v, want ok", g)
	}
	if code, _, _ := execute(t, "validate", "demo", "-o", "json"); code != 0 {
		t.Errorf("validate demo -o json: exit %d", code)
	}
}
