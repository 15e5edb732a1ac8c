package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
)

func TestScenariosListShowsEveryBuiltin(t *testing.T) {
	code, out, _ := execute(t, "scenarios")
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	for _, b := range scenarios.Builtins() {
		if !strings.Contains(out, b.Name) || !strings.Contains(out, b.Description) {
			t.Errorf("list lacks %s: %s", b.Name, b.Description)
		}
	}
}

// TestShowIsAnEditableStart saves a shown scenario, validates and runs it as a file.
func TestShowIsAnEditableStart(t *testing.T) {
	code, out, _ := execute(t, "scenarios", "show", "boundary-burst")
	src, _ := scenarios.BuiltinSource("boundary-burst")
	if code != 0 || out != string(src) {
		t.Fatalf("show: exit %d, output differs from the built-in", code)
	}
	path := filepath.Join(t.TempDir(), "mine.yaml")
	os.WriteFile(path, []byte(out), 0o644)
	if code, out, errOut := execute(t, "validate", path); code != 0 || out != path+": ok\n" {
		t.Errorf("validate: exit %d, %q %q", code, out, errOut)
	}
	_, fromFile, _ := execute(t, "run", path, "-f", "csv")
	_, builtin, _ := execute(t, "run", "boundary-burst", "-f", "csv")
	if fromFile != strings.ReplaceAll(builtin, "boundary-burst,", "mine,") {
		t.Errorf("the saved file runs differently from the built-in:\n%s\n%s", fromFile, builtin)
	}
}

func TestSchemaIsJSON(t *testing.T) {
	code, out, _ := execute(t, "schema")
	var v map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &v) != nil || v["title"] != "rlsim scenario" {
		t.Errorf("schema: exit %d, not the scenario JSON Schema: %.100s", code, out)
	}
}

func TestVersion(t *testing.T) {
	code, out, _ := execute(t, "version")
	if code != 0 || !strings.HasPrefix(out, "rlsim ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
}

func TestCompletion(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"__complete", "run", "boundary"}, "boundary-burst"},
		{[]string{"__complete", "run", "--lanes", "gcra,tok"}, "gcra,token_bucket"},
		{[]string{"__complete", "run", "choose-burst", "--lanes", "gcra,bu"}, "gcra,burst_20"},
		{[]string{"__complete", "scenarios", "show", ""}, "retry-storm-full-jitter"},
		{[]string{"completion", "bash"}, "bash completion"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, out, errOut := execute(t, tc.args...)
			if code != 0 || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d, output lacks %q:\n%.300s\n%s", code, tc.want, out, errOut)
			}
		})
	}
}

func TestRunEveryBuiltin(t *testing.T) {
	for _, b := range scenarios.Builtins() {
		t.Run(b.Name, func(t *testing.T) {
			code, out, errOut := execute(t, "run", b.Name)
			if code != 0 || !strings.Contains(out, "findings") {
				t.Errorf("exit %d, no findings:\n%s%s", code, out, errOut)
			}
		})
	}
}
