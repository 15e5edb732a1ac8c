package run

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// CheckFailed marks an error, nil staying nil; the mark is found through any
// wrapping and the error reads and unwraps as the one marked.
func TestCheckFailedMarksTheError(t *testing.T) {
	if CheckFailed(nil) != nil {
		t.Error("CheckFailed(nil) is not nil")
	}
	inner := errors.New("2 of 3 checks failed")
	marked := CheckFailed(inner)
	if !IsCheckFailed(marked) || !IsCheckFailed(fmt.Errorf("run: %w", marked)) {
		t.Errorf("IsCheckFailed(%v) false, alone or wrapped", marked)
	}
	if IsCheckFailed(inner) || IsCheckFailed(BadInput(inner)) {
		t.Error("an unmarked error is taken for a failed check")
	}
	if !errors.Is(marked, inner) || marked.Error() != inner.Error() {
		t.Errorf("CheckFailed(%q) reads %q and unwraps %v", inner, marked, errors.Unwrap(marked))
	}
}

// A cancelled run gives ctx's error itself, not wrapped after the file's name.
func TestScenarioCancelledGivesTheContextsError(t *testing.T) {
	s := sinksScenario(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Scenario(ctx, s, Options{Simulate: func(ctx context.Context, _ sim.Config, _ sim.Options) (sim.Result, error) {
		return sim.Result{}, ctx.Err()
	}})
	if err != context.Canceled {
		t.Errorf("cancelled: %v, want context.Canceled itself", err)
	}
}

// A contention study gets the budget: one too small stops it with an input
// error naming the file and the budget to lift; with none it runs to a
// Contention outcome and no Result.
func TestStudyTakesTheBudget(t *testing.T) {
	s, err := Load("backoff-contention")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Scenario(context.Background(), s, Options{MaxEvents: 50})
	var ie *InputError
	if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), s.File+": ") || !strings.Contains(err.Error(), "--max-events above 50") {
		t.Errorf("a study over a budget of 50 events: %v, want an input error naming %s and the budget", err, s.File)
	}
	small, err := scenarios.Parse("small.yaml", []byte("contention:\n  clients: [3]\n  jitters: [full]\n  base: 5ms\n  cap: 1s\n  hop: 10ms\n  runs: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	o, err := Scenario(context.Background(), small, Options{MaxEvents: 1_000_000})
	if err != nil || o.Contention == nil || o.Result != nil || o.Scenario != small {
		t.Errorf("a small study: %v, contention %v, result %v; want a Contention outcome of the scenario", err, o.Contention, o.Result)
	}
}

// The command line's scenario is the one SetCommandLine stored, named
// CommandLineFile, with the sets written into it.
func TestCommandLineScenario(t *testing.T) {
	SetCommandLine([]byte("duration: 3s\nclients:\n  - arrivals: [{kind: constant, rate: 5/s}]\n"))
	t.Cleanup(func() { SetCommandLine(nil) })
	sets, err := ParseSets([]string{"seed=9"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Load(CommandLineArg, sets...)
	if err != nil {
		t.Fatal(err)
	}
	if s.File != CommandLineFile || s.Config.Duration.Seconds() != 3 || s.Config.Seed != 9 {
		t.Errorf("command line scenario: file %q, duration %v, seed %d; want %q, 3s, 9", s.File, s.Config.Duration, s.Config.Seed, CommandLineFile)
	}
	SetCommandLine([]byte("duration: [\n"))
	if _, err := Load(CommandLineArg); err == nil || !strings.HasPrefix(err.Error(), CommandLineFile+":") {
		t.Errorf("a bad command line scenario: %v, want an error at %s", err, CommandLineFile)
	}
}
