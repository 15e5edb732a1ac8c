package main

import (
	"os"
	"path/filepath"
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

// TestValidateRefusesEveryNonFiniteNumberAtOnce: NaN and infinities in a file,
// wherever a number is read, are each refused with their line and field, all
// at once, exit 2; run refuses the file with the same words. "value: NaN" in a
// check once passed validate and then failed every check of the run.
func TestValidateRefusesEveryNonFiniteNumberAtOnce(t *testing.T) {
	file := filepath.Join(t.TempDir(), "nan.yaml")
	src := `limits:
  - limit: .nan
lanes: [token_bucket, aimd, client_throttle]
aimd:
  initial: .inf
throttle:
  k: -.Inf
clients:
  - arrivals:
      - kind: constant
        rate: 5/s
checks:
  - {metric: success_rate, op: ">=", value: NaN}
  - {metric: peak_ratio, op: "<=", value: Inf}
  - {metric: admitted_rate, op: "<=", value: 1e400/s}
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	want := file + `:2: limits[0].limit: want a whole number, got ".nan"
` + file + `:5: aimd.initial: want a number, got ".inf"
` + file + `:7: throttle.k: want a number, got "-.Inf"
` + file + `:13: checks[0].value: "NaN" is not a rate: want a share from 0% to 100%, like 99% or 0.99
` + file + `:14: checks[1].value: "Inf" is not a ratio: want a number like 1.2
` + file + `:15: checks[2].value: "1e400/s" is not an admitted rate: want requests per second, like 2/s
`
	code, out, errOut := execute(t, "validate", file)
	if code != exitBadInput || out != "" || errOut != want {
		t.Errorf("validate: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and:\n%s", code, out, errOut, want)
	}
	if code, out, errOut := execute(t, "run", file); code != exitBadInput || out != "" || errOut != want {
		t.Errorf("run: exit %d, stdout %q, stderr:\n%s\nwant exit 2 and:\n%s", code, out, errOut, want)
	}
}

// TestValidateWarnsOfADividedLimitBelowTheReplicas: a limit divided over more
// replicas than it has units per window passes, with a warning naming its line.
func TestValidateWarnsOfADividedLimitBelowTheReplicas(t *testing.T) {
	file := filepath.Join(t.TempDir(), "login.yaml")
	src := `limits:
  - key: ip
    limit: 5
    window: 15m
    state: local
    local_limit: divided
topology:
  replicas: 8
clients:
  - arrivals: [{kind: constant, rate: 1/s}]
`
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := execute(t, "validate", file)
	want := file + ":6: limits[0].local_limit: warning: 5 per 15m divided over 8 replicas leaves 3 of them a share of nothing"
	if code != exitOK || !strings.HasPrefix(out, want) || !strings.HasSuffix(out, file+": ok\n") {
		t.Errorf("validate = %d, %q, %q; want 0 and a warning %q before ok", code, out, errOut, want)
	}
}
