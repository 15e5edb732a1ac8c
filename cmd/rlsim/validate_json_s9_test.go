package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestValidateJSONListsEveryField: rlsim validate -o json writes, for every
// file, its name, ok, and both lists, empty ones as [] (a reader indexes them
// without a check); a warning is in warnings with its line and field, an
// error in errors.
func TestValidateJSONListsEveryField(t *testing.T) {
	dir := t.TempDir()
	warned := filepath.Join(dir, "login.yaml")
	src := "limits:\n  - key: ip\n    limit: 5\n    window: 15m\n    state: local\n    local_limit: divided\ntopology:\n  replicas: 8\nclients:\n  - arrivals: [{kind: constant, rate: 1/s}]\n"
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(warned, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("limits:\n  - key: nobody\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := execute(t, "validate", "-o", "json", warned, bad)
	var doc struct {
		Files []map[string]json.RawMessage `json:"files"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Files) != 2 {
		t.Fatalf("validate -o json = %d, %q, %q: %v; want two files", code, out, errOut, err)
	}
	type problem struct {
		File, Path, Message string
		Line                int
	}
	for i, want := range []struct {
		ok               bool
		errors, warnings int
	}{{true, 0, 1}, {false, 1, 0}} {
		f := doc.Files[i]
		for _, k := range []string{"file", "ok", "errors", "warnings"} {
			if _, ok := f[k]; !ok {
				t.Errorf("file %d has no %q: %s", i, k, out)
			}
		}
		var ok bool
		var errs, warns []problem
		json.Unmarshal(f["ok"], &ok)
		if json.Unmarshal(f["errors"], &errs) != nil || json.Unmarshal(f["warnings"], &warns) != nil || errs == nil || warns == nil {
			t.Errorf("file %d: errors %s, warnings %s; want two lists", i, f["errors"], f["warnings"])
		}
		if ok != want.ok || len(errs) < want.errors || want.errors == 0 && len(errs) != 0 || len(warns) != want.warnings {
			t.Errorf("file %d: ok %v, %d errors, %d warnings; want %+v", i, ok, len(errs), len(warns), want)
		}
		if want.warnings == 1 && len(warns) == 1 && (warns[0].Line != 6 || warns[0].Path != "limits[0].local_limit") {
			t.Errorf("the warning %+v, want line 6 at limits[0].local_limit", warns[0])
		}
	}
	if code != exitBadInput {
		t.Errorf("exit %d with a bad file, want %d", code, exitBadInput)
	}
}
