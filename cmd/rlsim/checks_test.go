package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const gatedScenario = `duration: 5s
lanes: [token_bucket, sliding_log]
limits:
  - key: user
    limit: 10
    window: 1s
clients:
  - name: users
    count: 3
    arrivals:
      - kind: constant
        rate: 2/s
  - name: abuser
    arrivals:
      - kind: constant
        rate: 30/s
checks:
  - {lane: sliding_log, class: users, metric: success_rate, op: ">=", value: 99%}
`

// TestChecksGateTheExitStatus runs a scenario whose check passes, then the same
// made to fail by --set, as a CI job would: status 0, then 1 with the failure
// on stderr and the measured value in every format.
func TestChecksGateTheExitStatus(t *testing.T) {
	file := filepath.Join(t.TempDir(), "gate.yaml")
	if err := os.WriteFile(file, []byte(gatedScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name       string
		args       []string
		wantStatus int
		wantOut    []string
		wantErr    string
	}{
		{"a check that passes", []string{"run", file}, exitOK,
			[]string{"checks: 1 of 1 passed", "pass    sliding log  users  success_rate >= 99%  100.0%"}, ""},
		{"the users' class swapped for the abuser's fails", []string{"run", file, "--set", "checks[0].class=abuser"}, exitCheckFailed,
			[]string{"checks: 0 of 1 passed", "FAIL    sliding log  abuser  success_rate >= 99%"}, "rlsim: 1 of 1 checks failed"},
		{"every lane", []string{"run", file, "--set", "checks[0].lane="}, exitOK,
			[]string{"checks: 2 of 2 passed", "pass    token bucket  users  success_rate >= 99%  100.0%"}, ""},
		{"every lane and class, the abuser failing", []string{"run", file, "--set", "checks[0].lane=", "--set", "checks[0].class="}, exitCheckFailed,
			[]string{"checks: 0 of 2 passed", "FAIL    token bucket  all    success_rate >= 99%"}, "rlsim: 2 of 2 checks failed"},
		{"csv counts per row", []string{"run", file, "-f", "csv", "--set", "checks[0].class=abuser"}, exitCheckFailed,
			[]string{"checks_passed,checks_failed", ",sliding_log,abuser,", ",0,1\n"}, "rlsim: 1 of 1 checks failed"},
		{"a bad check is bad input", []string{"run", file, "--set", "checks[0].metric=sucess_rate"}, exitBadInput,
			nil, `(--set checks[0].metric=sucess_rate): checks[0].metric: unknown value "sucess_rate"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := execute(t, tc.args...)
			if code != tc.wantStatus {
				t.Fatalf("status %d, want %d; stderr:\n%s", code, tc.wantStatus, errOut)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(out, w) {
					t.Errorf("stdout lacks %q:\n%s", w, out)
				}
			}
			if strings.TrimSpace(errOut) != tc.wantErr && !strings.Contains(errOut, tc.wantErr) || (tc.wantErr == "") != (errOut == "") {
				t.Errorf("stderr %q, want %q", errOut, tc.wantErr)
			}
		})
	}
}

func TestChecksInJSON(t *testing.T) {
	file := filepath.Join(t.TempDir(), "gate.yaml")
	if err := os.WriteFile(file, []byte(gatedScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := execute(t, "run", file, "-f", "json", "--set", "checks[0].value=0.5")
	if code != exitOK {
		t.Fatalf("status %d: %s", code, errOut)
	}
	var doc struct {
		Runs []struct {
			Lanes []struct {
				Lane    string
				Classes []struct {
					Name        string
					SuccessRate float64 `json:"success_rate"`
				}
			}
			Checks []struct {
				Lane, Class, Metric, Op string
				Want, Got               float64
				Pass                    bool
			}
		}
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	checks := doc.Runs[0].Checks
	if len(checks) != 1 {
		t.Fatalf("checks %+v, want 1", checks)
	}
	c := checks[0]
	users := doc.Runs[0].Lanes[1].Classes[0]
	if c.Lane != "sliding_log" || c.Class != "users" || c.Metric != "success_rate" || c.Op != ">=" || c.Want != 0.5 ||
		c.Got != users.SuccessRate || !c.Pass {
		t.Errorf("check %+v, want sliding_log users success_rate >= 0.5 measured %v, passed", c, users.SuccessRate)
	}
}

// TestReportShowsChecksAndSets: the HTML report of a gated run lists every
// check as measured, says which --set flags changed the scenario shown, and its
// command line repeats them; the report is written even though a check failed.
func TestReportShowsChecksAndSets(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "gate.yaml")
	if err := os.WriteFile(file, []byte(gatedScenario), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "report")
	code, _, errOut := execute(t, "run", file, "--out", out, "--set", "checks[0].lane=", "--set", "checks[0].class=")
	if code != exitCheckFailed {
		t.Fatalf("status %d, want 1: %s", code, errOut)
	}
	page, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"<h3>Checks: 0 of 2 passed</h3>",
		"<td>FAIL</td><td>token bucket</td><td>all</td><td>success_rate &gt;= 99%</td>",
		"as written: the run replaced <code>checks[0].lane=</code>, <code>checks[0].class=</code>",
		"--set &#39;checks[0].lane=&#39; --set &#39;checks[0].class=&#39;",
	} {
		if !strings.Contains(string(page), want) {
			t.Errorf("index.html lacks %q", want)
		}
	}
}
