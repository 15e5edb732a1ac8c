package sim

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/algorithms"
)

// A run stopped by its budget says how far it got: the error is the budget
// and BudgetError.Where, which names the lane, the instant reached and the run's end.
func TestBudgetErrorSaysWhereItStopped(t *testing.T) {
	cfg := Config{
		Duration: 2 * time.Second, Seed: 1, Lanes: []LaneKind{LaneTokenBucket},
		Limits:  []Limit{{Key: KeyGlobal, Policy: algorithms.Policy{Limit: 10, Window: time.Second}}},
		Clients: []ClientGroup{{Count: 2, Arrivals: []Arrival{{Kind: ArrivalConstant, Rate: Rate{20, time.Second}}}}},
	}
	s, err := New(cfg, Options{MaxEvents: 30})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.RunToEnd(context.Background())
	var be *BudgetError
	if !errors.As(err, &be) {
		t.Fatalf("RunToEnd: %v, want a BudgetError", err)
	}
	if want := "stopped after the budget of 30 events, " + be.Where; err.Error() != want {
		t.Errorf("error %q, want %q", err, want)
	}
	if !strings.HasPrefix(be.Where, "in lane token_bucket at t=") || !strings.Contains(be.Where, " of ") {
		t.Errorf("Where %q, want \"in lane token_bucket at t=… of …\"", be.Where)
	}
}
