package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const traefikSample = "../../importer/testdata/traefik/production.toml"

// rlsim import prints a scenario rlsim runs, the config's problems as
// warnings on stderr; --strict refuses them, printing nothing.
func TestImportCommand(t *testing.T) {
	code, out, errOut := execute(t, "import", traefikSample)
	if code != 0 || !strings.HasPrefix(out, "# Imported by rlsim import from "+traefikSample+" (Traefik).") {
		t.Fatalf("import: exit %d, %.120q %s", code, out, errOut)
	}
	if !strings.Contains(errOut, "warning: "+traefikSample+":11: router api: PathPrefix") {
		t.Errorf("import: the config's problems are not warned of on stderr: %q", errOut)
	}
	file := filepath.Join(t.TempDir(), "imported.yaml")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errOut := execute(t, "run", file, "--lanes", "traefik", "-o", "json"); code != 0 || !strings.Contains(out, `"lane": "traefik"`) {
		t.Errorf("run of the imported scenario: exit %d, %.200s %s", code, out, errOut)
	}
	code, out, errOut = execute(t, "import", traefikSample, "--strict")
	if code != exitBadInput || out != "" || !strings.Contains(errOut, traefikSample+":11: router api: PathPrefix") {
		t.Errorf("import --strict: exit %d, stdout %.80q, stderr %q", code, out, errOut)
	}
	for _, args := range [][]string{{"import", traefikSample, "--from", "nginx"}, {"import", traefikSample, "--from", "iis"}, {"import", "no-such.conf"}} {
		if code, out, errOut := execute(t, args...); code != exitBadInput || out != "" || errOut == "" {
			t.Errorf("%v: exit %d, stdout %.80q, stderr %q; want exit 2 and a message", args, code, out, errOut)
		}
	}
}

// run --config runs the scenario's clients against the config's limits and
// lanes, says so in place of the scenario's description, and validate
// accepts what run starts.
func TestRunWithConfig(t *testing.T) {
	code, out, errOut := execute(t, "run", "demo", "--config", traefikSample, "-o", "json")
	if code != 0 {
		t.Fatalf("run demo --config: exit %d, %s", code, errOut)
	}
	for _, want := range []string{`"lane": "traefik"`, "demo's clients against the limits and lanes of " + traefikSample + " (traefik)", `"name": "api/api-key-limit"`} {
		if !strings.Contains(out, want) {
			t.Errorf("run demo --config: the JSON lacks %q", want)
		}
	}
	if strings.Contains(out, `"lane": "token_bucket"`) {
		t.Errorf("run demo --config kept the scenario's own lanes")
	}
	if code, out, _ := execute(t, "validate", "demo", "--config", traefikSample); code != 0 || !strings.Contains(out, "demo.yaml: ok with --config "+traefikSample) {
		t.Errorf("validate demo --config: exit %d, %q", code, out)
	}
	// --set applies after the config: it changes the config's limit.
	code, out, _ = execute(t, "run", "demo", "--config", traefikSample, "--set", "limits[0].limit=7", "-o", "json")
	if code != 0 || !strings.Contains(out, `"limit": 7,`) {
		t.Errorf("run --config --set limits[0].limit=7: exit %d; the limit is not 7", code)
	}
	if code, _, errOut := execute(t, "run", "demo", "--from", "kong"); code != exitBadInput || !strings.Contains(errOut, "--from and --strict need --config") {
		t.Errorf("--from without --config: exit %d, %q", code, errOut)
	}
}
