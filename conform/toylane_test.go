package conform

import (
	"slices"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/internal/toylane"
	"github.com/rlsim/rlsim/sim"
)

// TestToyLaneTwin adds a per-key lane by its algorithm and a registry row
// alone (toylane.Budget) and holds conform's exact twin of it to the lane's
// own decisions, attempt for attempt, on the lane's traffic. Checking it
// against Redis would take one file more, scripts/toy_budget.lua (its state
// and decision, as fixed_window.lua); without it the lane is named as having
// no script.
func TestToyLaneTwin(t *testing.T) {
	toy, undo := sim.AddTestLane[toylane.State]("toy_budget", toylane.New)
	defer undo()
	if slices.Contains(ScriptLanes(), toy) {
		t.Fatalf("ScriptLanes() = %v holds the toy lane, which has no script", ScriptLanes())
	}
	if _, err := ConformLanes(&sim.Config{}, toy); err == nil || !strings.Contains(err.Error(), "toy_budget has no limiter script") {
		t.Errorf("ConformLanes(toy) error %v, want one naming toy_budget as having no script", err)
	}
	traffic, err := Traffic(t.Context(), *loadConfig(t, "testdata/mixed.yaml"), []sim.LaneKind{toy}, 0)
	if err != nil {
		t.Fatal(err)
	}
	lt := traffic[0]
	tw, err := newTwin(toy, lt.Policy)
	if err != nil {
		t.Fatal(err)
	}
	var admitted, refused int
	for i, a := range lt.Attempts {
		d := tw.decide(a.Key, a.At, a.Cost)
		if d.Admitted() != a.Admitted || (!a.Admitted && d.RetryAfter != a.RetryAfter) {
			t.Fatalf("attempt %d (%+v): twin admitted %v retry-after %v", i, a, d.Admitted(), d.RetryAfter)
		}
		if a.Admitted {
			admitted++
		} else {
			refused++
		}
	}
	if admitted == 0 || refused == 0 {
		t.Errorf("the toy lane admitted %d and refused %d attempts: want some of each", admitted, refused)
	}
}
