package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The one-line form runs the scenario its flags build, and
// --print-scenario prints that scenario: run from a file, it gives the
// same results.
func TestOneLineScenario(t *testing.T) {
	flags := []string{"--limit", "key=ip limit=10/1s burst=5", "--traffic", "20 poisson 15/s retry=exponential jitter=full",
		"--traffic", "name=bot 1 constant 100/s", "--lanes", "token_bucket,gcra"}
	code, printed, errOut := execute(t, append([]string{"run", "--print-scenario"}, flags...)...)
	if code != 0 || !strings.Contains(printed, "#   --traffic 'name=bot 1 constant 100/s'") {
		t.Fatalf("--print-scenario: exit %d, %s %s", code, printed, errOut)
	}
	file := filepath.Join(t.TempDir(), "saved.yaml")
	if err := os.WriteFile(file, []byte(printed), 0o644); err != nil {
		t.Fatal(err)
	}
	code, fromLine, errOut := execute(t, append([]string{"run", "-o", "json"}, flags...)...)
	if code != 0 {
		t.Fatalf("run --limit --traffic: exit %d, %s", code, errOut)
	}
	code, fromFile, _ := execute(t, "run", file, "--lanes", "token_bucket,gcra", "-o", "json")
	if code != 0 {
		t.Fatalf("run of the printed scenario: exit %d", code)
	}
	lanes := func(doc string) string {
		var v struct {
			Runs []struct {
				Lanes json.RawMessage `json:"lanes"`
			} `json:"runs"`
		}
		if err := json.Unmarshal([]byte(doc), &v); err != nil || len(v.Runs) != 1 {
			t.Fatalf("not one run's JSON: %v", err)
		}
		return string(v.Runs[0].Lanes)
	}
	if lanes(fromLine) != lanes(fromFile) {
		t.Errorf("the one-line run and the run of its printed scenario differ")
	}
	var limit struct {
		Runs []struct {
			Limits []struct {
				Key   string `json:"key"`
				Limit int64  `json:"limit"`
				Burst int64  `json:"burst"`
			} `json:"limits"`
		} `json:"runs"`
	}
	json.Unmarshal([]byte(fromLine), &limit)
	if l := limit.Runs[0].Limits; len(l) != 1 || l[0].Key != "ip" || l[0].Limit != 10 || l[0].Burst != 5 {
		t.Errorf("the one-line limit is %+v, want ip 10 burst 5", l)
	}
}

func TestOneLineProblems(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--limit", "key=ip limit=10/1s", "--traffic", "20 poison 2/s"}, `--traffic '20 poison 2/s': "poison": not a count, an arrival kind`},
		{[]string{"--limit", "key=ip"}, "--limit key=ip: limit: missing"},
		{[]string{"--limit", "key=ip limit=10/1s"}, "--traffic: at least one client group is needed"},
		{[]string{"demo", "--traffic", "2 poisson 1/s"}, "give them or a scenario demo, not both"},
		{[]string{"--print-scenario"}, "--print-scenario: prints the scenario --limit and --traffic build"},
		{[]string{"--limit", "key=ipp limit=10/1s", "--traffic", "2 poisson 1/s"}, `command-line.yaml:`},
	} {
		code, out, errOut := execute(t, append([]string{"run"}, tc.args...)...)
		if code != exitBadInput || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("run %q: exit %d, stdout %.60q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
}

func TestOneLineReproduces(t *testing.T) {
	o := oneLine{Limits: []string{"key=ip limit=10/1s"}, Traffic: []string{"2 poisson 1/s"}}
	got := o.command("rlsim run '' --seed 7")
	if want := "rlsim run --limit 'key=ip limit=10/1s' --traffic '2 poisson 1/s' --seed 7"; got != want {
		t.Errorf("command = %q, want %q", got, want)
	}
}

// --set applies to the one-line scenario as to a file's: a state that needs
// a topology the --set gives is no problem.
func TestOneLineTakesSets(t *testing.T) {
	code, _, errOut := execute(t, "run", "--limit", "key=user limit=10/1s name=a state=shared", "--traffic", "5 poisson 5/s",
		"--set", "topology.replicas=2", "--lanes", "gcra")
	if code != 0 {
		t.Errorf("one line with --set topology.replicas=2: exit %d, %s", code, errOut)
	}
}
