package run

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
)

// Validate over the budget suggests a --max-events that lifts it: the
// scenario's own estimate rounded up (SuggestedBudget), at or above the
// estimate and so above the budget, for budgets on both sides of it.
func TestValidateSuggestsABudgetThatFits(t *testing.T) {
	s, err := Load("builtin:nat-per-ip")
	if err != nil {
		t.Fatal(err)
	}
	n := s.Config.EstimateEvents()
	if n < 100 {
		t.Fatalf("estimate %d: too small to tell the budget from it", n)
	}
	for _, budget := range []int64{1, n / 3, n - 1} {
		_, err := Validate("builtin:nat-per-ip", nil, budget)
		var be *scenarios.BudgetError
		if !errors.As(err, &be) || be.Estimate != n || be.Budget != budget {
			t.Fatalf("Validate at budget %d: %v, want a BudgetError with estimate %d", budget, err, n)
		}
		want := fmt.Sprintf("lift the budget with --max-events %d", SuggestedBudget(n))
		if !strings.HasSuffix(err.Error(), want) || SuggestedBudget(n) < n {
			t.Errorf("Validate at budget %d: %q, want it to end %q (estimate %d)", budget, err, want, n)
		}
	}
	if _, err := Validate("builtin:nat-per-ip", nil, n); err != nil {
		t.Errorf("Validate at the estimate %d: %v, want none", n, err)
	}
}
