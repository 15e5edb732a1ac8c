package run

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

func loadAll(t *testing.T, names ...string) []*scenarios.Scenario {
	t.Helper()
	list, err := LoadAll(names)
	if err != nil {
		t.Fatal(err)
	}
	return list
}

func TestOverridesApply(t *testing.T) {
	seven := uint64(7)
	tests := []struct {
		name    string
		names   []string
		ov      Overrides
		wantErr []string // each in the error, which must then be an *InputError
		check   func(t *testing.T, list []*scenarios.Scenario)
	}{
		{name: "nothing overridden", names: []string{"demo"}, check: func(t *testing.T, list []*scenarios.Scenario) {
			if list[0].Config.Seed != 1 {
				t.Errorf("seed %d, want the file's 1", list[0].Config.Seed)
			}
		}},
		{name: "seed, duration and lanes replace the file's", names: []string{"demo", "backoff-contention"},
			ov: Overrides{Seed: &seven, Duration: 0, Lanes: "gcra,fixed_window"}, wantErr: []string{"--lanes does not apply to backoff-contention"}},
		{name: "a seed reaches every kind", names: []string{"demo", "backoff-contention"}, ov: Overrides{Seed: &seven},
			check: func(t *testing.T, list []*scenarios.Scenario) {
				if list[0].Config.Seed != 7 || list[1].Contention.Seed != 7 {
					t.Errorf("seeds %d and %d, want 7 and 7", list[0].Config.Seed, list[1].Contention.Seed)
				}
			}},
		{name: "duration and lanes", names: []string{"demo"}, ov: Overrides{Duration: 2 * time.Second, Lanes: "gcra"},
			check: func(t *testing.T, list []*scenarios.Scenario) {
				c := list[0].Config
				if c.Duration != 2*time.Second || len(c.Lanes) != 1 || c.Lanes[0] != sim.LaneGCRA {
					t.Errorf("duration %v, lanes %v; want 2s and gcra", c.Duration, c.Lanes)
				}
			}},
		{name: "every problem at once", names: []string{"backoff-contention"}, ov: Overrides{Duration: time.Second, Lanes: "gcra", MaxEvents: 10},
			wantErr: []string{"--lanes does not apply", "--duration does not apply", "lift the budget with --max-events"}},
		{name: "an unknown lane", names: []string{"demo"}, ov: Overrides{Lanes: "gcra,bogus"}, wantErr: []string{"--lanes: "}},
		{name: "a duration past 100 years names the flag", names: []string{"demo", "boundary-burst"}, ov: Overrides{Duration: sim.MaxTime + time.Hour},
			wantErr: []string{"--duration: 876001h0m0s is more than 100 years (876000h), the longest a scenario may state"}},
		{name: "a negative duration names the flag", names: []string{"demo"}, ov: Overrides{Duration: -time.Second},
			wantErr: []string{"--duration: must be positive, got -1s"}},
		{name: "a variant by name", names: []string{"choose-burst"}, ov: Overrides{Lanes: "burst_100,gcra"},
			check: func(t *testing.T, list []*scenarios.Scenario) {
				c := list[0].Config
				if got := c.LaneNames(); len(got) != 2 || got[0] != "burst_100" || got[1] != "gcra" || len(c.Overrides) != 1 ||
					c.Overrides[0].Name != "burst_100" || c.Overrides[0].Policy.Burst != 100 {
					t.Errorf("lanes %v, overrides %+v; want burst_100 with its burst of 100, then gcra", got, c.Overrides)
				}
			}},
		{name: "a variant's name misspelt", names: []string{"choose-burst"}, ov: Overrides{Lanes: "burst_10"},
			wantErr: []string{`choose-burst.yaml: --lanes: unknown lane "burst_10" (want burst_5, burst_20, burst_100, fixed_window`, `did you mean "burst_20"?`}},
		{name: "over the budget", names: []string{"demo"}, ov: Overrides{MaxEvents: 100},
			wantErr: []string{"over the budget of 100; shorten the scenario or lift the budget with --max-events "}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list := loadAll(t, tc.names...)
			err := tc.ov.Apply(list)
			for _, want := range tc.wantErr {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("Apply error %v, want it to contain %q", err, want)
				}
			}
			var ie *InputError
			if len(tc.wantErr) > 0 && !errors.As(err, &ie) {
				t.Errorf("Apply error %v is not an *InputError", err)
			}
			if len(tc.wantErr) == 0 && err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if tc.check != nil {
				tc.check(t, list)
			}
		})
	}
}

func TestSuggestedBudget(t *testing.T) {
	for _, tc := range []struct{ n, want int64 }{
		{1, 1}, {99, 99}, {100, 100}, {101, 110}, {12_345, 13_000}, {50_000_001, 51_000_000},
	} {
		if got := SuggestedBudget(tc.n); got != tc.want {
			t.Errorf("SuggestedBudget(%d) = %d, want %d", tc.n, got, tc.want)
		}
	}
}

// TestScenarioStoppedByTheBudget runs each kind with a budget too small: the
// error names the file and says how to lift the budget, as bad input.
func TestScenarioStoppedByTheBudget(t *testing.T) {
	for _, name := range []string{"demo", "backoff-contention"} {
		t.Run(name, func(t *testing.T) {
			s := loadAll(t, name)[0]
			_, err := Scenario(context.Background(), s, Options{MaxEvents: 10})
			var ie *InputError
			if !errors.As(err, &ie) || !strings.Contains(err.Error(), s.File+": the run ") ||
				!strings.Contains(err.Error(), "lift the budget with --max-events above 10") {
				t.Errorf("error %v, want bad input naming %s and the budget", err, s.File)
			}
		})
	}
}

// TestTraceAppearsOnlyOnCommit writes a trace of demo: nothing is at the path
// until Commit, and Abort leaves nothing behind.
func TestTraceAppearsOnlyOnCommit(t *testing.T) {
	for _, commit := range []bool{true, false} {
		dir := t.TempDir()
		path := filepath.Join(dir, "t.csv")
		tr, err := CreateTrace(path)
		if err != nil {
			t.Fatal(err)
		}
		s := loadAll(t, "demo")[0]
		o, err := Scenario(context.Background(), s, Options{Trace: tr})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the trace is at %s before Commit", path)
		}
		if commit {
			if err := tr.Commit(); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(path)
			var attempts int64
			for _, l := range o.Result.Lanes {
				attempts += l.Attempts
			}
			var lines int64
			for _, line := range strings.Split(string(b), "\n") {
				// demo has no backend and no client-side gate: every attempt is
				// admitted, delayed or refused.
				if f := strings.Split(line, ","); len(f) > 3 && (f[3] == "admit" || f[3] == "delay" || f[3] == "refuse") {
					lines++
				}
			}
			if lines != attempts {
				t.Errorf("%d attempt lines in the trace, want the %d attempts the lanes counted", lines, attempts)
			}
		} else {
			tr.Abort()
		}
		if entries, _ := os.ReadDir(dir); len(entries) != map[bool]int{true: 1, false: 0}[commit] {
			t.Errorf("commit %v: the folder holds %v", commit, entries)
		}
	}
}
