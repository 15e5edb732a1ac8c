package main

import (
	"strings"
	"testing"
)

// TestValidateSets checks that validate --set checks each file as rlsim run
// would run it with the same flags: what validate calls ok, run starts, and
// what it refuses, run refuses with the same errors.
func TestValidateSets(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		wantOut string
		wantErr []string // in validate's stderr, which must then equal run's
	}{
		{name: "a set reaches every file", args: []string{"demo", "boundary-burst", "--set", "limits[0].limit=20"},
			wantOut: "demo.yaml: ok with --set limits[0].limit=20\nboundary-burst.yaml: ok with --set limits[0].limit=20\n"},
		{name: "several sets", args: []string{"demo", "--set", "limits[0].limit=20", "--set", "clients[1].count=2"},
			wantOut: "demo.yaml: ok with --set limits[0].limit=20 --set clients[1].count=2\n"},
		{name: "no set, no mention", args: []string{"demo"}, wantOut: "demo.yaml: ok\n"},
		{name: "a bad value names the flag", args: []string{"demo", "--set", "limits[0].limit=abc"},
			wantErr: []string{`(--set limits[0].limit=abc): limits[0].limit: want a whole number, got "abc"`}},
		{name: "a set one file does not fit", args: []string{"demo", "boundary-burst", "--set", "clients[1].count=3"},
			wantOut: "demo.yaml: ok with --set clients[1].count=3\n",
			wantErr: []string{"(--set clients[1].count=3): clients[1]: no such entry: the list has 1"}},
		{name: "a value the file's checks refuse", args: []string{"demo", "--set", "limits[0].window=0s"},
			wantErr: []string{"limits[0].window"}},
		{name: "malformed sets, all at once", args: []string{"demo", "--set", "bogus", "--set", "a[x]=1"},
			wantErr: []string{"--set bogus: want path=value", `--set a[x]=1: path "a[x]"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := execute(t, append([]string{"validate"}, tc.args...)...)
			if out != tc.wantOut {
				t.Errorf("stdout %q, want %q", out, tc.wantOut)
			}
			if tc.wantErr == nil {
				if code != 0 || errOut != "" {
					t.Errorf("exit %d, stderr %q; want 0 and nothing", code, errOut)
				}
				if rcode, _, rerr := execute(t, append([]string{"run", "-f", "csv"}, tc.args...)...); rcode != 0 && rcode != 1 {
					t.Errorf("validate calls it ok, run refuses it (exit %d): %s", rcode, rerr)
				}
				return
			}
			if code != exitBadInput {
				t.Errorf("exit %d, want %d", code, exitBadInput)
			}
			for _, w := range tc.wantErr {
				if !strings.Contains(errOut, w) {
					t.Errorf("stderr %q lacks %q", errOut, w)
				}
			}
			rcode, _, rerr := execute(t, append([]string{"run"}, tc.args...)...)
			if rcode != exitBadInput || rerr != errOut {
				t.Errorf("run: exit %d, stderr %q; validate: %q", rcode, rerr, errOut)
			}
		})
	}
}

func TestValidateFlags(t *testing.T) {
	var got *validateOptions
	cmd := NewCmdValidate(nil, func(o *validateOptions) error { got = o; return nil })
	cmd.SetArgs([]string{"a.yaml", "--set", "limits[0].limit=3", "--set", "lanes=[gcra, aimd]"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	if want := []string{"limits[0].limit=3", "lanes=[gcra, aimd]"}; strings.Join(got.Sets, "|") != strings.Join(want, "|") {
		t.Errorf("sets %q, want %q", got.Sets, want)
	}
}
