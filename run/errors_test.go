package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
)

func TestIsBadInput(t *testing.T) {
	fe := &scenarios.FieldError{File: "a.yaml", Line: 3, Path: "limits[0].limit", Msg: "want a whole number"}
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"an InputError", BadInputf("--seeds: want 1 to 1000, got 0"), true},
		{"a field error", fe, true},
		{"a file's errors", scenarios.Errors{fe}, true},
		{"over the budget", &scenarios.BudgetError{File: "a.yaml", Estimate: 10, Budget: 1}, true},
		{"wrapped and joined", errors.Join(errors.New("other"), fmt.Errorf("loading: %w", fe)), true},
		{"a plain error", errors.New("disk full"), false},
		{"unfinished", CouldNotFinish(errors.New("redis went away")), false},
		{"interrupted", context.Canceled, false},
		{"nil", nil, false},
	}
	for _, tc := range tests {
		if got := IsBadInput(tc.err); got != tc.want {
			t.Errorf("IsBadInput(%s: %v) = %v, want %v", tc.name, tc.err, got, tc.want)
		}
	}
}

func TestBuiltinCompletions(t *testing.T) {
	got := BuiltinCompletions()
	if len(got) != len(scenarios.Builtins()) {
		t.Fatalf("%d completions for %d built-ins", len(got), len(scenarios.Builtins()))
	}
	for i, b := range scenarios.Builtins() {
		if name, desc, _ := strings.Cut(got[i], "\t"); name != b.Name || desc != b.Description || desc == "" {
			t.Errorf("completion %d = %q, want %s and its description", i, got[i], b.Name)
		}
	}
}
