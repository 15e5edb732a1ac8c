package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
)

// TestConfigWarningsGoToStderrOnly: every command that reads a --config
// writes each of its problems (the importer's, in order) as one "warning:"
// line on standard error, and none on standard output, which carries only
// the command's own output: run's JSON, validate's ok line, nothing for a tui
// refused for want of a terminal.
func TestConfigWarningsGoToStderrOnly(t *testing.T) {
	problems := filepath.Join("..", "..", "importer", "testdata", "nginx", "problems.conf")
	cfg, err := run.ImportConfig(problems, "auto", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Model.Problems) < 2 {
		t.Fatalf("%s: %d problems, want some", problems, len(cfg.Model.Problems))
	}
	var want []string
	for _, p := range cfg.Model.Problems {
		want = append(want, "warning: "+p.String())
	}
	tiny := filepath.Join("testdata", "numbers", "tiny.yaml")
	for _, tc := range []struct {
		args  []string
		code  int
		check func(out string) bool // what stdout must be
	}{
		{[]string{"run", tiny, "--config", problems, "--format", "json"}, exitOK, func(out string) bool { return json.Valid([]byte(out)) }},
		{[]string{"validate", tiny, "--config", problems}, exitOK, func(out string) bool {
			return out == tiny+": ok with --config "+problems+"\n"
		}},
		{[]string{"tui", tiny, "--config", problems}, exitBadInput, func(out string) bool { return out == "" }},
	} {
		code, out, errOut := execute(t, tc.args...)
		name := strings.Join(tc.args[:2], " ")
		if code != tc.code || !tc.check(out) || strings.Contains(out, "warning:") {
			t.Errorf("rlsim %s --config: exit %d (want %d), stdout %q", name, code, tc.code, out)
		}
		var got []string
		for _, l := range strings.Split(errOut, "\n") {
			if strings.HasPrefix(l, "warning: ") {
				got = append(got, l)
			}
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("rlsim %s --config: stderr warnings\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}
