package run

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
)

var nginxTestdata = filepath.Join("..", "importer", "testdata", "nginx")

// ImportConfig and ImportFile read a product config alike and differ in how
// an error names it: "--config: " first for the flag, the file alone for
// rlsim import; --strict refuses a config with problems, each marked.
func TestImportConfigAndFileNameTheirSource(t *testing.T) {
	minimal := filepath.Join(nginxTestdata, "minimal.conf")
	c, err := ImportConfig(minimal, "", false)
	if err != nil {
		t.Fatal(err)
	}
	f, err := ImportFile(minimal, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != minimal || c.Model == nil || f.Model == nil || c.Model.Product != f.Model.Product || len(c.Model.Limits) == 0 || len(c.Model.Limits) != len(f.Model.Limits) {
		t.Fatalf("ImportConfig %+v and ImportFile %+v differ", c, f)
	}
	missing := filepath.Join(t.TempDir(), "none.conf")
	_, cerr := ImportConfig(missing, "", false)
	_, ferr := ImportFile(missing, "", false)
	if cerr == nil || ferr == nil || !IsBadInput(cerr) || !IsBadInput(ferr) || cerr.Error() != "--config: "+ferr.Error() || !strings.Contains(ferr.Error(), missing) {
		t.Errorf("a missing file: ImportConfig %v, ImportFile %v; want bad input, the same but --config: first, naming %s", cerr, ferr, missing)
	}
	problems := filepath.Join(nginxTestdata, "problems.conf")
	loose, err := ImportFile(problems, "", false)
	if err != nil || len(loose.Model.Problems) == 0 {
		t.Fatalf("problems.conf: %v, %d problems; want some", err, len(loose.Model.Problems))
	}
	_, err = ImportFile(problems, "", true)
	if err == nil || !IsBadInput(err) {
		t.Fatalf("--strict of a config with problems: %v, want bad input", err)
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(loose.Model.Problems) {
		t.Errorf("--strict gave %d lines for %d problems: %v", len(lines), len(loose.Model.Problems), err)
	}
	for i, p := range loose.Model.Problems {
		if i < len(lines) && lines[i] != p.String()+" (--strict)" {
			t.Errorf("--strict line %d = %q, want %q", i, lines[i], p.String()+" (--strict)")
		}
	}
}

// Overrides.Load with a --config gives every scenario the config's limits,
// in place of its own, and still applies the --set flags on top.
func TestOverridesLoadWritesTheConfigIn(t *testing.T) {
	c, err := ImportConfig(filepath.Join(nginxTestdata, "minimal.conf"), "", false)
	if err != nil {
		t.Fatal(err)
	}
	name := scenarios.BuiltinNames()[0]
	plain, err := Load(BuiltinPrefix + name)
	if err != nil {
		t.Fatal(err)
	}
	list, err := Overrides{Config: c, Sets: []string{"duration=7s"}}.Load([]string{BuiltinPrefix + name, BuiltinPrefix + name})
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 2 {
		t.Fatalf("Load of two args gave %d scenarios", len(list))
	}
	for _, s := range list {
		if len(s.Config.Limits) != len(c.Model.Limits) {
			t.Errorf("with --config: %d limits, want the config's %d (the scenario had %d)", len(s.Config.Limits), len(c.Model.Limits), len(plain.Config.Limits))
		}
		if s.Config.Duration != 7*time.Second {
			t.Errorf("with --config and --set duration=7s: duration %v", s.Config.Duration)
		}
	}
	_, err = Overrides{Config: c}.Load([]string{BuiltinPrefix + "no-such", BuiltinPrefix + "nor-this"})
	if err == nil || !IsBadInput(err) || !strings.Contains(err.Error(), "no-such") || !strings.Contains(err.Error(), "nor-this") {
		t.Errorf("--config over two unknown built-ins: %v, want bad input naming both", err)
	}
}
