package conform

import (
	"context"
	"testing"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

func loadConfig(t *testing.T, path string) *sim.Config {
	t.Helper()
	s, err := scenarios.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := Suitable(s.File, s.Config); err != nil {
		t.Fatal(err)
	}
	return s.Config
}

func laneTraffic(t *testing.T, cfg *sim.Config) []LaneTraffic {
	t.Helper()
	lanes, err := ConformLanes(cfg, sim.LaneDefault)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Lanes) == 0 {
		lanes = ScriptLanes()
	}
	traffic, err := Traffic(context.Background(), *cfg, lanes, 0)
	if err != nil {
		t.Fatal(err)
	}
	return traffic
}

// TestAtomicScriptsDecideAsTheExactLanes replays each lane's traffic through
// its atomic reference script with the exact instants (scheduled clock): every
// verdict and every Retry-After must be the exact lane's, to the nanosecond.
func TestAtomicScriptsDecideAsTheExactLanes(t *testing.T) {
	opts := needRedis(t)
	for _, file := range []string{"testdata/mixed.yaml", "../scenarios/builtin/demo.yaml"} {
		cfg := loadConfig(t, file)
		traffic := laneTraffic(t, cfg)
		checks, err := Check(context.Background(), opts, traffic, CheckOptions{
			Replay: Replay{Clock: ClockScheduled, Scale: 200, Prefix: t.Name() + ":" + file + ":"},
			Shown:  3,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range checks {
			if c.Attempts == 0 || c.ExactAdmitted == c.Attempts {
				t.Errorf("%s %s: %d attempts, %d admitted: the traffic tests no refusal", file, c.Lane, c.Attempts, c.ExactAdmitted)
			}
			if c.Agreed != c.Attempts {
				t.Errorf("%s %s: %d of %d agreed; first differences:", file, c.Lane, c.Agreed, c.Attempts)
				for _, d := range c.Diffs {
					t.Errorf("  at %v key %s cost %d: exact admitted=%v ra=%v, real admitted=%v ra=%v (now %v, err %v)",
						d.Attempt.At, d.Attempt.Key, d.Attempt.Cost, d.Attempt.Admitted, d.Attempt.RetryAfter,
						d.Answer.Admitted, d.Answer.RetryAfter, d.Answer.Now, d.Answer.Err)
				}
			}
		}
	}
	_ = time.Second
}
