package conform

import (
	"context"
	"fmt"
	"strings"
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

// allLaneTraffic is what every lane with a script meets in cfg.
func allLaneTraffic(t *testing.T, cfg *sim.Config) []LaneTraffic {
	t.Helper()
	traffic, err := Traffic(context.Background(), *cfg, ScriptLanes(), 0)
	if err != nil {
		t.Fatal(err)
	}
	return traffic
}

// prefix is a key prefix no other test (or earlier run) of this server uses.
func prefix(t *testing.T, parts ...any) string {
	return fmt.Sprint(t.Name(), parts, ":")
}

// conformingFiles are scenarios whose traffic meets refusals in every lane:
// costs, per-user keys, retries and a rate whose emission interval is no whole ns.
var conformingFiles = []string{"testdata/mixed.yaml", "../scenarios/builtin/demo.yaml"}

func reportDiffs(t *testing.T, file string, c LaneCheck) {
	t.Helper()
	for _, d := range c.Diffs {
		t.Errorf("  %s %s: at %v key %s cost %d: exact admitted=%v ra=%v; redis admitted=%v ra=%v at %v (err %v); algorithm there admitted=%v ra=%v",
			file, c.Lane, d.Attempt.At, d.Attempt.Key, d.Attempt.Cost, d.Attempt.Admitted, d.Attempt.RetryAfter,
			d.Answer.Admitted, d.Answer.RetryAfter, d.Answer.Now, d.Answer.Err, d.Twin.Admitted, d.Twin.RetryAfter)
	}
}

// TestAtomicScriptsDecideAsTheExactLanes replays each lane's traffic through
// its atomic reference script with the exact instants (scheduled clock), and
// through its racy pair from one connection (no concurrency: no race): every
// verdict and every Retry-After must be the exact lane's, to the nanosecond.
func TestAtomicScriptsDecideAsTheExactLanes(t *testing.T) {
	opts := needRedis(t)
	for _, file := range conformingFiles {
		traffic := allLaneTraffic(t, loadConfig(t, file))
		for _, racy := range []bool{false, true} {
			for _, lt := range traffic {
				if _, ok := scriptFor(lt.Lane, RacyRead); racy && !ok {
					continue
				}
				co := CheckOptions{Replay: Replay{Clock: ClockScheduled, Scale: 200, Prefix: prefix(t, file, racy)}, Shown: 3}
				if racy {
					read, _ := scriptFor(lt.Lane, RacyRead)
					write, _ := scriptFor(lt.Lane, RacyWrite)
					co.Script = NewRacy(write.Name, read.Source, write.Source)
				}
				checks, err := Check(context.Background(), opts, []LaneTraffic{lt}, co)
				if err != nil {
					t.Fatal(err)
				}
				c := checks[0]
				if c.Attempts == 0 || c.ExactAdmitted == c.Attempts {
					t.Errorf("%s %s: %d attempts, %d admitted: the traffic tests no refusal", file, c.Lane, c.Attempts, c.ExactAdmitted)
				}
				if c.Agreed != c.Attempts || c.Unexplained != 0 {
					t.Errorf("%s %s (racy %v): %d of %d agreed, %d unexplained; first differences:", file, c.Lane, racy, c.Agreed, c.Attempts, c.Unexplained)
					reportDiffs(t, file, c)
				}
			}
		}
	}
}

// TestAtomicScriptsAgreeOnTheDriversClock replays in real time with the time
// the driver sent each call at (skew and all): every difference from the
// exact lane must be the clock's, none the script's.
func TestAtomicScriptsAgreeOnTheDriversClock(t *testing.T) {
	opts := needRedis(t)
	file := "testdata/mixed.yaml"
	traffic := allLaneTraffic(t, loadConfig(t, file))
	checks, err := Check(context.Background(), opts, traffic, CheckOptions{
		Replay: Replay{Clock: ClockDriver, Scale: 10, Prefix: prefix(t)}, Tolerance: 0, Shown: 3,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		if c.Unexplained != 0 || c.StoreErrors != 0 {
			t.Errorf("%s: %d unexplained differences, %d store errors", c.Lane, c.Unexplained, c.StoreErrors)
			reportDiffs(t, file, c)
		}
		if c.Agreed+c.DifferedWithin+c.Differed+c.RetryAfterDiffered != c.Attempts {
			t.Errorf("%s: outcomes %+v do not add up to the attempts", c.Lane, c.Tally)
		}
	}
}

// TestAWrongScriptIsCaught checks a token bucket whose bucket holds one token
// more than the policy's: its differences are unexplained, on any clock.
func TestAWrongScriptIsCaught(t *testing.T) {
	opts := needRedis(t)
	s, _ := ScriptNamed("token_bucket")
	wrong := strings.Replace(s.Source, "local allowed = (burst - cost) * W", "local allowed = (burst + 1 - cost) * W", 1)
	if wrong == s.Source {
		t.Fatal("the token bucket script no longer has the line this test changes")
	}
	cfg := loadConfig(t, "testdata/mixed.yaml")
	traffic, err := Traffic(context.Background(), *cfg, []sim.LaneKind{sim.LaneTokenBucket}, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The driver's clock replays in real time, which a loaded machine can
	// stretch until a difference looks like the clock's: such a try is taken
	// again (raceTries), and a wrong script is caught on some try.
	for _, clock := range []Clock{ClockScheduled, ClockDriver} {
		var problem string
		for try := range raceTries {
			checks, err := Check(context.Background(), opts, traffic, CheckOptions{
				Replay: Replay{Clock: clock, Scale: 50, Prefix: prefix(t, clock, try)}, Tolerance: 0, Shown: 1,
				Script: NewAtomic("wrong", wrong),
			})
			if err != nil {
				t.Fatal(err)
			}
			problem = ""
			if c := checks[0]; c.Unexplained == 0 || len(c.Diffs) != 1 || c.Diffs[0].Explained {
				problem = fmt.Sprintf("clock %s: %d unexplained, diffs %+v; want some, the first shown unexplained", clock, c.Unexplained, c.Diffs)
				t.Logf("try %d of %d: %s", try+1, raceTries, problem)
				continue
			}
			break
		}
		if problem != "" {
			t.Error(problem)
		}
	}
}

// TestAtomicScriptsOnTheServersClock has the scripts read Redis's TIME, in
// real time: every difference from the exact lane is the clock's, and the
// instants the scripts decided at are within a second of the attempts'.
func TestAtomicScriptsOnTheServersClock(t *testing.T) {
	opts := needRedis(t)
	file := "../scenarios/builtin/boundary-burst.yaml"
	traffic := allLaneTraffic(t, loadConfig(t, file))
	checks, err := Check(context.Background(), opts, traffic, CheckOptions{
		Replay: Replay{Clock: ClockServer, Scale: 1, Prefix: prefix(t)}, Shown: 3,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range checks {
		if c.Unexplained != 0 || c.StoreErrors != 0 || c.MaxSkew > time.Second || c.Attempts == 0 {
			t.Errorf("%s: %d attempts, %d unexplained, %d store errors, max skew %v", c.Lane, c.Attempts, c.Unexplained, c.StoreErrors, c.MaxSkew)
			reportDiffs(t, file, c)
		}
	}
}
