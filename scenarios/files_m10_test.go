package scenarios

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Load names the file in every error it cannot read past: missing, a
// directory, or over MaxFileSize (checked from the size, before reading); a
// file of a built-in's YAML loads as that built-in does.
func TestLoadReadsOrNamesTheFile(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileSize + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	for _, tc := range []struct{ path, msg string }{
		{filepath.Join(dir, "missing.yaml"), "no such file"},
		{dir, "is a directory"},
		{big, "larger than 10 MB, the most a scenario file may hold"},
	} {
		_, err := Load(tc.path)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.File != tc.path || fe.Msg != tc.msg || err.Error() != tc.path+": "+tc.msg {
			t.Errorf("Load(%s) = %v, want %s: %s", tc.path, err, tc.path, tc.msg)
		}
	}
	name := BuiltinNames()[0]
	src, ok := BuiltinSource(name)
	if !ok {
		t.Fatalf("no source for %s", name)
	}
	path := filepath.Join(dir, name+".yaml")
	if err := os.WriteFile(path, src, 0o644); err != nil {
		t.Fatal(err)
	}
	fromFile, err := Load(path)
	if err != nil {
		t.Fatalf("Load(%s): %v", path, err)
	}
	builtin, err := LoadBuiltin(name)
	if err != nil {
		t.Fatal(err)
	}
	if fromFile.Description != builtin.Description || fromFile.Config.Duration != builtin.Config.Duration || len(fromFile.Config.Clients) != len(builtin.Config.Clients) {
		t.Errorf("Load of %s's YAML differs from LoadBuiltin: %q %v vs %q %v", name, fromFile.Description, fromFile.Config.Duration, builtin.Description, builtin.Config.Duration)
	}
}

// An unknown built-in is an error naming it and listing every built-in in
// the order of Builtins, with a hint for a near miss and none for a name far
// from all; a name with a path separator or none is no built-in.
func TestUnknownBuiltinListsThemAll(t *testing.T) {
	var names []string
	for _, b := range Builtins() {
		names = append(names, b.Name)
	}
	if got := strings.Join(BuiltinNames(), ","); got != strings.Join(names, ",") || len(names) < 5 {
		t.Fatalf("BuiltinNames = %s, want Builtins' names %s", got, strings.Join(names, ","))
	}
	list := "no built-in scenario of that name (rlsim scenarios lists them: " + strings.Join(names, ", ") + ")"
	near := names[len(names)-1][:len(names[len(names)-1])-1] // its last letter left out
	for _, tc := range []struct{ name, want string }{
		{"zzzzqqqqxxxx", list},
		{near, list + "; did you mean \"" + names[len(names)-1] + "\"?"},
	} {
		_, err := LoadBuiltin(tc.name)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.File != tc.name || fe.Msg != tc.want {
			t.Errorf("LoadBuiltin(%q) = %v, want %s: %s", tc.name, err, tc.name, tc.want)
		}
	}
	for _, bad := range []string{"", "../" + names[0], "builtin/" + names[0], `builtin\` + names[0]} {
		if _, ok := BuiltinSource(bad); ok {
			t.Errorf("BuiltinSource(%q) found a source", bad)
		}
	}
}
