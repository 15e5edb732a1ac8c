package sweep

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/run"
)

// testSweep is a small sweep of a built-in whose clients draw random numbers.
func testSweep() Sweep {
	return Sweep{Arg: "noisy-neighbour", Seeds: 3,
		Varies:    []Vary{{Path: "limits[0].limit", Values: []string{"20", "40"}}},
		Overrides: run.Overrides{Lanes: "fixed_window,token_bucket", MaxEvents: 50_000_000}}
}

func runSweep(t *testing.T, sw Sweep, jobs int) *Result {
	t.Helper()
	p, err := sw.Plan()
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Run(context.Background(), RunOptions{Jobs: jobs})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSweepDoesNotDependOnJobs(t *testing.T) {
	one := mustJSON(t, runSweep(t, testSweep(), 1))
	for _, jobs := range []int{2, 5} {
		if got := mustJSON(t, runSweep(t, testSweep(), jobs)); !bytes.Equal(got, one) {
			t.Errorf("a sweep with %d jobs differs from one with 1 job", jobs)
		}
	}
}

// Each run of a sweep is exactly rlsim run with the point's --set and the seed.
func TestSweepRunsAreSingleRuns(t *testing.T) {
	r := runSweep(t, testSweep(), 2)
	if len(r.Points) != 2 || len(r.Points[1].Runs) != 3 {
		t.Fatalf("got %d points, want 2 of 3 runs each", len(r.Points))
	}
	seeds := map[string]bool{}
	for k, sr := range r.Points[1].Runs {
		seed := uint64(1) + uint64(k)
		if sr.Seed != seed {
			t.Errorf("run %d has seed %d, want %d", k, sr.Seed, seed)
		}
		ov := run.Overrides{Seed: &seed, Lanes: "fixed_window,token_bucket", Sets: []string{"limits[0].limit=40"}}
		list, err := ov.Load([]string{"noisy-neighbour"})
		if err == nil {
			err = ov.Apply(list)
		}
		if err != nil {
			t.Fatal(err)
		}
		o, err := run.Scenario(context.Background(), list[0], run.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(mustJSON(t, run.Measure(o.Result)), mustJSON(t, sr.Lanes)) {
			t.Errorf("seed %d at limit 40: the sweep measured other figures than rlsim run does", seed)
		}
		seeds[string(mustJSON(t, sr.Lanes))] = true
	}
	if len(seeds) < 2 {
		t.Errorf("three seeds gave the same figures: the seed does not reach the runs")
	}
}

func writePartials(t *testing.T, sw Sweep, n int) []string {
	t.Helper()
	dir := t.TempDir()
	var paths []string
	for i := range n {
		sw.Shard = Shard{i, n}
		var buf bytes.Buffer
		if err := WritePartial(&buf, runSweep(t, sw, 1)); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "part-"+string(rune('0'+i))+".json")
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, path)
	}
	return paths
}

func TestShardsMergeIntoTheWholeSweep(t *testing.T) {
	sw := testSweep()
	sw.Varies = append(sw.Varies, Vary{Path: "limits[0].burst", Values: []string{"20", "60"}})
	whole := mustJSON(t, runSweep(t, sw, 2))
	for _, n := range []int{1, 3, 4, 6} {
		paths := writePartials(t, sw, n)
		merged, err := MergePartials(paths)
		if err != nil {
			t.Fatalf("%d shards: %v", n, err)
		}
		if got := mustJSON(t, merged); !bytes.Equal(got, whole) {
			t.Errorf("%d shards merged differ from the whole sweep", n)
		}
	}
	paths := writePartials(t, sw, 3)
	other := testSweep()
	other.Seeds = 2
	otherPaths := writePartials(t, other, 3)
	notPartial := filepath.Join(t.TempDir(), "x.json")
	os.WriteFile(notPartial, []byte(`{"version": 2}`), 0o644)
	for _, tc := range []struct {
		name    string
		paths   []string
		wantErr string
	}{
		{"a shard missing", paths[:2], "shards [2/3] are missing"},
		{"a shard twice", []string{paths[0], paths[1], paths[2], paths[1]}, "shard 1/3 is also in"},
		{"another sweep", []string{paths[0], paths[1], otherPaths[2]}, "a part of another sweep"},
		{"not a partial", []string{notPartial}, "not a partial result of rlsim sweep --shard"},
		{"no such file", []string{filepath.Join(t.TempDir(), "none.json")}, "no such file"},
	} {
		_, err := MergePartials(tc.paths)
		var ie *run.InputError
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.As(err, &ie) {
			t.Errorf("%s: error = %v, want an input error with %q", tc.name, err, tc.wantErr)
		}
	}
}

func TestPlanRefusesBeforeAnyRun(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(*Sweep)
		wantErr []string
	}{
		{"no seeds", func(sw *Sweep) { sw.Seeds = 0 }, []string{"--seeds: want 1 to 1000, got 0"}},
		{"too many seeds", func(sw *Sweep) { sw.Seeds = 1001 }, []string{"--seeds: want 1 to 1000, got 1001"}},
		{"a path twice", func(sw *Sweep) { sw.Varies = append(sw.Varies, sw.Varies[0]) }, []string{"--vary limits[0].limit: the path is varied twice"}},
		{"a path set and varied", func(sw *Sweep) { sw.Overrides.Sets = []string{"limits[0].limit=5"} }, []string{"--vary limits[0].limit: the path is varied twice, or also given by --set"}},
		{"the duration varied and given", func(sw *Sweep) {
			sw.Overrides.Duration = time.Second
			sw.Varies = []Vary{{Path: "duration", Values: []string{"5s", "10s"}}}
		}, []string{"--vary duration: the path is varied twice, or also given by --set or --duration"}},
		{"bad values, each named by its --vary", func(sw *Sweep) { sw.Varies[0].Values = []string{"20", "abc", "-3"} },
			[]string{`(--vary limits[0].limit=abc): limits[0].limit: want a whole number, got "abc"`, "(--vary limits[0].limit=-3):"}},
		{"bad values are listed up to 20", func(sw *Sweep) {
			sw.Varies[0].Values = nil
			for _, v := range countTo(50) {
				sw.Varies[0].Values = append(sw.Varies[0].Values, "-"+v)
			}
		}, []string{"(--vary limits[0].limit=-1):", "(--vary limits[0].limit=-20):", "...; more points fail, not listed"}},
		{"the seed", func(sw *Sweep) { sw.Varies = []Vary{{Path: "seed", Values: []string{"1", "2"}}} }, []string{"--vary seed: every point runs the same seeds; give --seeds N"}},
		{"the lanes", func(sw *Sweep) { sw.Varies = []Vary{{Path: "lanes", Values: []string{"[gcra]"}}} }, []string{"--vary lanes: every point runs the same lanes; choose them with --lanes"}},
		{"one lane", func(sw *Sweep) { sw.Varies = []Vary{{Path: "lanes[1]", Values: []string{"gcra"}}} }, []string{"--vary lanes[1]: every point runs the same lanes"}},
		{"an unknown path", func(sw *Sweep) { sw.Varies[0].Path = "limits[0].limt" }, []string{"(--vary limits[0].limt=20):", "limt"}},
		{"over the budget", func(sw *Sweep) { sw.Overrides.MaxEvents = 1000 },
			[]string{"the sweep's 2 points × 3 seeds are estimated to need", "--max-events"}},
		{"more runs than one machine keeps", func(sw *Sweep) {
			sw.Seeds = 1000
			sw.Varies[0].Values = countTo(101)
		}, []string{"101 points × 1000 seeds make 101000 runs, more than the 100000 one machine keeps; split the sweep with --shard"}},
		{"over the budget, over seeds", func(sw *Sweep) { sw.Varies, sw.Overrides.MaxEvents = nil, 1000 },
			[]string{"noisy-neighbour.yaml: 3 seeds are estimated to need", "use fewer seeds or lift the budget with --max-events"}},
		{"more shards than any sweep has points", func(sw *Sweep) { sw.Shard = Shard{0, 1_000_000_000} },
			[]string{"--shard 0/1000000000: 1000000000 shards, more than the 10000 points a sweep may have"}},
		{"a shard past the count", func(sw *Sweep) { sw.Shard = Shard{3, 2} }, []string{"--shard 3/2: want i/n with 0 <= i < n"}},
		{"a vary without values", func(sw *Sweep) { sw.Varies[0].Values = nil }, []string{"--vary limits[0].limit: no values"}},
		{"seeds past the largest", func(sw *Sweep) { seed := uint64(math.MaxUint64 - 1); sw.Overrides.Seed = &seed },
			[]string{"--seed, --seeds: seeds 18446744073709551614 to 18446744073709551614 + 2 pass the largest seed, 18446744073709551615"}},
		{"a contention study", func(sw *Sweep) { sw.Arg, sw.Varies, sw.Overrides.Lanes = "backoff-contention", nil, "" },
			[]string{"a contention study has no lanes to sweep"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sw := testSweep()
			sw.Varies = []Vary{{Path: "limits[0].limit", Values: []string{"20", "40"}}}
			tc.edit(&sw)
			_, err := sw.Plan()
			var ie *run.InputError
			if err == nil || !errors.As(err, &ie) {
				t.Fatalf("Plan() error = %v, want an input error", err)
			}
			for _, want := range tc.wantErr {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("Plan() error = %v, want %q", err, want)
				}
			}
		})
	}
}

func TestBudgetCountsPointsTimesSeeds(t *testing.T) {
	sw := testSweep()
	p, err := sw.Plan()
	if err != nil {
		t.Fatal(err)
	}
	var per int64
	for _, pt := range p.owned {
		per += p.scenarios[pt].Config.EstimateEvents()
	}
	sw.Overrides.MaxEvents = per * 3 // exactly the sweep's work
	if _, err := sw.Plan(); err != nil {
		t.Errorf("a budget of exactly points × seeds × events: %v", err)
	}
	sw.Overrides.MaxEvents = per*3 - 1
	if _, err := sw.Plan(); err == nil {
		t.Errorf("a budget one event short of points × seeds × events was accepted")
	}
}

// A sweep runs no more goroutines than it has runs, however many jobs it is
// given (100000000 jobs once started that many and ran out of memory).
func TestSweepJobsAreClampedToTheRuns(t *testing.T) {
	p, err := testSweep().Plan()
	if err != nil {
		t.Fatal(err)
	}
	before := runtime.NumGoroutine()
	most := 0
	if _, err := p.Run(context.Background(), RunOptions{Jobs: 1000, Progress: func(done, total int) {
		most = max(most, runtime.NumGoroutine())
	}}); err != nil {
		t.Fatal(err)
	}
	// Six workers, the feeder, the closer and what each run starts of its own
	// stay far below 50; the unclamped 1000 workers counted 776 here.
	if most-before > 50 {
		t.Errorf("1000 jobs over 6 runs ran %d goroutines beside the test's %d, want at most 50", most-before, before)
	}
}

func TestSweepStopsWhenCancelled(t *testing.T) {
	p, err := testSweep().Plan()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	_, err = p.Run(ctx, RunOptions{Jobs: 2, Progress: func(done, total int) {
		calls++
		cancel()
	}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run after cancel: error = %v, want context.Canceled", err)
	}
}

func TestSweepCancelledBeforeItStartsGivesNothing(t *testing.T) {
	p, err := testSweep().Plan()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r, err := p.Run(ctx, RunOptions{Jobs: 2}); !errors.Is(err, context.Canceled) || r != nil {
		t.Errorf("Run(cancelled) = %v, %v; want nothing and context.Canceled", r, err)
	}
}

// countTo lists "1" to "n".
func countTo(n int) []string {
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, strconv.Itoa(i))
	}
	return out
}

func TestAddWorkSaturates(t *testing.T) {
	for _, tc := range []struct {
		total, events int64
		seeds         int
		want          int64
	}{
		{0, 10, 3, 30}, {5, 10, 3, 35},
		{0, math.MaxInt64 / 2, 3, math.MaxInt64},
		{math.MaxInt64 - 10, 4, 3, math.MaxInt64},
		{math.MaxInt64 - 12, 4, 3, math.MaxInt64},
	} {
		if got := addWork(tc.total, tc.events, tc.seeds); got != tc.want {
			t.Errorf("addWork(%d, %d, %d) = %d, want %d", tc.total, tc.events, tc.seeds, got, tc.want)
		}
	}
}

// A sweep's lanes are the scenario's by name, so a --where can name a variant:
// choose-burst runs three token buckets, each of its own name.
func TestSweepLanesAreNamedAsTheScenariosAre(t *testing.T) {
	sw := Sweep{Arg: "choose-burst", Seeds: 1, Varies: []Vary{{Path: "limits[0].limit", Values: []string{"5", "10"}}},
		Overrides: run.Overrides{MaxEvents: 50_000_000}}
	p, err := sw.Plan()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(p.LaneNames, ","); got != "burst_5,burst_20,burst_100" {
		t.Fatalf("lanes %s, want choose-burst's names", got)
	}
	if _, err := ParseWhere("lane burst_20 class batch success >= 10%", p.LaneNames, p.ClassNames); err != nil {
		t.Errorf("a where naming a variant: %v", err)
	}
	if _, err := ParseWhere("lane token_bucket success >= 10%", p.LaneNames, p.ClassNames); err == nil {
		t.Error("a where naming the algorithm, not a lane of the scenario, was taken")
	}
}

// laneCores keeps each run's lanes on one core once there are four runs for
// each job, and leaves them on every core otherwise.
func TestLaneCores(t *testing.T) {
	for _, c := range []struct{ jobs, total, want int }{
		{1, 100, 0}, {2, 7, 0}, {2, 8, 1}, {3, 11, 0}, {3, 12, 1}, {2, 600, 1},
	} {
		if got := laneCores(c.jobs, c.total); got != c.want {
			t.Errorf("laneCores(%d jobs, %d runs) = %d, want %d", c.jobs, c.total, got, c.want)
		}
	}
}

// A sweep of runs enough for each to keep its lanes on one core (laneCores)
// measures what one job does, byte for byte.
func TestSweepOfManyRunsDoesNotDependOnJobs(t *testing.T) {
	sw := testSweep()
	sw.Seeds = 4 // 8 runs: four for each of 2 jobs
	if laneCores(2, 8) != 1 {
		t.Fatal("8 runs on 2 jobs do not keep each run's lanes on one core")
	}
	one := mustJSON(t, runSweep(t, sw, 1))
	if got := mustJSON(t, runSweep(t, sw, 2)); !bytes.Equal(got, one) {
		t.Error("a sweep of 8 runs with 2 jobs differs from one with 1 job")
	}
}
