package conform

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
)

// TestFleetProgressCountsTheFleetsAnswers: fleetRun tells progress the
// answers so far of the whole fleet (its doc), concurrently: over a run the
// values told are 1 to the number of attempts, each once, whatever the
// number of replicas.
func TestFleetProgressCountsTheFleetsAnswers(t *testing.T) {
	opts := needRedis(t)
	cfg := loadConfig(t, "testdata/race.yaml")
	traffic, err := Traffic(context.Background(), *cfg, ScriptLanes(), 0)
	if err != nil {
		t.Fatal(err)
	}
	lt := traffic[0]
	lt.Attempts = lt.Attempts[:min(len(lt.Attempts), 60)]
	s, _ := scriptFor(lt.Lane, Atomic)
	for _, n := range []int{1, 3} {
		var mu sync.Mutex
		var told []int
		replay := Replay{Clock: ClockDriver, Scale: 50, Prefix: prefix(t, n)}
		_, _, _, err := fleetRun(context.Background(), opts, NewAtomic(s.Name, s.Source), replay, n, lt, func(answered int) {
			mu.Lock()
			told = append(told, answered)
			mu.Unlock()
		})
		if problem := stalled(err); problem != "" {
			t.Skipf("%d replicas: %s", n, problem)
		} else if err != nil {
			t.Fatal(err)
		}
		slices.Sort(told)
		for i, v := range told {
			if v != i+1 {
				t.Fatalf("%d replicas: told %v, want 1 to %d each once", n, told, len(lt.Attempts))
			}
		}
		if len(told) != len(lt.Attempts) {
			t.Errorf("%d replicas: told %d answers, want %d", n, len(told), len(lt.Attempts))
		}
	}
}

// TestSessionCancelledWithinAnAnswerEndsTheRun: a sequential session whose
// context ends while an attempt is answered (here: from its answered hook,
// at each attempt in turn, the last too) returns the context's error, not
// answers.
func TestSessionCancelledWithinAnAnswerEndsTheRun(t *testing.T) {
	opts := needRedis(t)
	cfg := loadConfig(t, "testdata/race.yaml")
	traffic, err := Traffic(context.Background(), *cfg, ScriptLanes(), 0)
	if err != nil {
		t.Fatal(err)
	}
	lt := traffic[0]
	attempts := lt.Attempts[:min(len(lt.Attempts), 4)]
	sc, _ := scriptFor(lt.Lane, Atomic)
	for k := range attempts {
		ctx, cancel := context.WithCancel(context.Background())
		replay := Replay{Clock: ClockDriver, Scale: 50, Prefix: prefix(t, k)}
		s, closeFn, err := newSession(ctx, opts, NewAtomic(sc.Name, sc.Source), replay, lt.Policy, 0, false)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		s.answered = func(i int, _ Answer) {
			if i == k {
				cancel()
			}
		}
		answers, err := s.run(ctx, attempts)
		closeFn()
		cancel()
		if !errors.Is(err, context.Canceled) || answers != nil {
			t.Errorf("cancelled at attempt %d of %d: %d answers, err %v; want none and context.Canceled", k+1, len(attempts), len(answers), err)
		}
	}
}
