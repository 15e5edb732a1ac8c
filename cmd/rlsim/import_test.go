package main

import (
	"encoding/json"
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

// replay --config takes the config's limits and lanes, and --nginx-format
// may name one of its log_formats: importer/testdata/nginx/production.conf's
// main. Seven requests to /login at once and one a second later: the login
// zone (30r/m, burst=5 nodelay) passes 6 at once, refuses the 7th, and the
// 8th (0.5 of a request drained by then) too.
func TestReplayWithConfigAndItsLogFormat(t *testing.T) {
	const conf = "../../importer/testdata/nginx/production.conf"
	code, out, errOut := execute(t, "replay", "testdata/nginx-main.log", "--config", conf, "--nginx-format", "main", "-o", "json")
	if code != 0 {
		t.Fatalf("replay --config --nginx-format main: exit %d, %s", code, errOut)
	}
	var doc struct {
		Format string `json:"format"`
		Limits []struct {
			Limit string `json:"limit"`
			Lanes []struct {
				Lane    string `json:"lane"`
				Refused int64  `json:"refused"`
			} `json:"lanes"`
		} `json:"limits"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v: %.300s", err, out)
	}
	if doc.Format != "nginx" || len(doc.Limits) == 0 || !strings.HasPrefix(doc.Limits[0].Limit, "name=login ") || len(doc.Limits[0].Lanes) != 1 {
		t.Fatalf("replay read %q with limits %+v", doc.Format, doc.Limits)
	}
	if l := doc.Limits[0].Lanes[0]; l.Lane != "nginx" || l.Refused != 2 {
		t.Errorf("login through the nginx lane: %+v, want 2 refused", l)
	}
	if !strings.Contains(errOut, "warning: ") {
		t.Errorf("the config's problems are not warned of: %q", errOut)
	}
}
