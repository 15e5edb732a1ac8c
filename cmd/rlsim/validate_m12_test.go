package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

// TestValidateBudgetBothSides: rlsim validate refuses a scenario whose
// estimate is over --max-events, one below the estimate, as bad input (exit
// 2, as its help says for any problem), in text and in JSON, naming the file
// and the --max-events that lifts it (run.SuggestedBudget of the estimate);
// at the estimate itself the file is ok.
func TestValidateBudgetBothSides(t *testing.T) {
	for _, name := range []string{"steady-overload", "demo"} {
		s, err := run.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		var be *scenarios.BudgetError
		if !errors.As(s.CheckBudget(0), &be) {
			t.Fatalf("%s: no estimate", name)
		}
		est := be.Estimate
		lift := fmt.Sprintf("lift the budget with --max-events %d", run.SuggestedBudget(est))
		for _, budget := range []int64{est - 1, est} {
			over := budget < est
			max := fmt.Sprint(budget)
			code, out, errOut := execute(t, "validate", name, "--max-events", max)
			switch {
			case over && (code != exitBadInput || out != "" || !strings.Contains(errOut, s.File+": about ") || !strings.Contains(errOut, lift)):
				t.Errorf("validate %s --max-events %s: exit %d, stdout %q, stderr %q; want 2, %s named and %q", name, max, code, out, errOut, s.File, lift)
			case !over && (code != exitOK || out != s.File+": ok\n"):
				t.Errorf("validate %s --max-events %s (the estimate): exit %d, stdout %q, stderr %q; want ok", name, max, code, out, errOut)
			}
			code, out, _ = execute(t, "validate", name, "--max-events", max, "-o", "json")
			var doc struct {
				Files []validatedFile `json:"files"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Files) != 1 {
				t.Fatalf("validate %s -o json: %v: %s", name, err, out)
			}
			f := doc.Files[0]
			switch {
			case over && (code != exitBadInput || f.OK || len(f.Errors) != 1 || !strings.Contains(f.Errors[0].Message, lift)):
				t.Errorf("validate %s --max-events %s -o json: exit %d, %+v; want 2 and one error saying %q", name, max, code, f, lift)
			case !over && (code != exitOK || !f.OK || len(f.Errors) != 0 || f.File != s.File):
				t.Errorf("validate %s --max-events %s -o json (the estimate): exit %d, %+v; want ok", name, max, code, f)
			}
		}
	}
}

// TestValidateTellsEveryFileAndCountsTheBad: of several files, text names each
// good one ok and each bad one's problem, JSON says how many of how many have
// problems, and either way the status is 2 when any has one.
func TestValidateTellsEveryFileAndCountsTheBad(t *testing.T) {
	s, err := run.Load("steady-overload")
	if err != nil {
		t.Fatal(err)
	}
	var be *scenarios.BudgetError
	errors.As(s.CheckBudget(0), &be)
	budget := fmt.Sprint(be.Estimate - 1) // steady-overload over it
	d, err := run.Load("demo")
	if err != nil {
		t.Fatal(err)
	}
	if d.CheckBudget(be.Estimate-1) != nil {
		t.Fatal("demo over steady-overload's budget")
	}
	for _, args := range [][]string{{"demo", "steady-overload", "demo"}, {"steady-overload", "demo", "steady-overload"}} {
		bad := strings.Count(strings.Join(args, " "), "steady-overload")
		code, out, errOut := execute(t, append(append([]string{"validate"}, args...), "--max-events", budget)...)
		if code != exitBadInput || strings.Count(out, d.File+": ok\n") != len(args)-bad || strings.Count(errOut, s.File+": about ") != bad {
			t.Errorf("validate %v: exit %d, stdout %q, stderr %q; want 2, %d ok, %d over", args, code, out, errOut, len(args)-bad, bad)
		}
		code, _, errOut = execute(t, append(append([]string{"validate"}, args...), "--max-events", budget, "-o", "json")...)
		if want := fmt.Sprintf("rlsim validate: %d of %d files have problems", bad, len(args)); code != exitBadInput || !strings.Contains(errOut, want) {
			t.Errorf("validate %v -o json: exit %d, stderr %q; want 2 and %q", args, code, errOut, want)
		}
	}
}
