package sweep

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/rlsim/rlsim/run"
	"github.com/rlsim/rlsim/scenarios"
)

// MaxSeeds caps --seeds, checked before any run.
const MaxSeeds = 1000

// MaxJobs caps --jobs: the runs are CPU-bound, so more at once than any
// machine has cores only holds more of them in memory.
const MaxJobs = 1024

// MaxRuns caps the runs (points × seeds) one machine keeps the figures of,
// checked before any point is loaded: a bigger sweep is split with --shard.
const MaxRuns = 100_000

// Sweep is a sweep to run: the scenario Arg with Overrides applied, at every
// point of the grid of Varies, each point with Seeds seeds (the scenario's
// seed, or Overrides.Seed, then each next one: seed, seed+1, ...). A run over
// several seeds is a sweep without Varies.
type Sweep struct {
	Arg       string
	Overrides run.Overrides
	Varies    []Vary
	Seeds     int
	Shard     Shard
}

// Shard is the share of a sweep's points one machine runs: those whose index
// (from 0, in grid order) leaves Index when divided by Count. The zero value
// is every point.
type Shard struct{ Index, Count int }

// ParseShard reads --shard i/n, 0 <= i < n <= MaxPoints: a shard beyond a
// sweep's points runs none of them, and no sweep has more than MaxPoints.
func ParseShard(s string) (Shard, error) {
	var sh Shard
	var rest string
	if n, err := fmt.Sscanf(s, "%d/%d%s", &sh.Index, &sh.Count, &rest); n != 2 || (err != nil && rest != "") || sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count || fmt.Sprintf("%d/%d", sh.Index, sh.Count) != s {
		return Shard{}, fmt.Errorf("--shard %s: want i/n with 0 <= i < n, e.g. 0/4 (a Kubernetes Indexed Job's JOB_COMPLETION_INDEX as i)", s)
	}
	if err := sh.check(); err != nil {
		return Shard{}, err
	}
	return sh, nil
}

// check refuses a shard count past MaxPoints, and an index outside 0 to n-1.
func (sh Shard) check() error {
	switch {
	case sh == Shard{}:
		return nil
	case sh.Count > MaxPoints:
		return fmt.Errorf("--shard %s: %d shards, more than the %d points a sweep may have", sh, sh.Count, MaxPoints)
	case sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count:
		return fmt.Errorf("--shard %s: want i/n with 0 <= i < n", sh)
	}
	return nil
}

func (sh Shard) owns(point int) bool { return sh.Count <= 1 || point%sh.Count == sh.Index }

// String is the shard as --shard writes it; "" for every point.
func (sh Shard) String() string {
	if sh.Count == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", sh.Index, sh.Count)
}

// maxPointErrors is how many problems of a sweep's points are listed.
const maxPointErrors = 20

// Plan is a sweep checked and loaded, ready to run: every point this shard
// runs, with its scenario.
type Plan struct {
	Header
	scenarios map[int]*scenarios.Scenario
	owned     []int
	shard     Shard
	// ClassNames are the base scenario's client classes, and LaneNames its lanes.
	ClassNames, LaneNames []string
	// Checks are the base scenario's checks.
	Checks []scenarios.Check
}

// Header says what a sweep ran; partial results merge only when theirs agree.
type Header struct {
	Scenario string `json:"scenario"`
	// Arg is the scenario as the command line named it (a file's path, a
	// built-in's name); shards may name one file by different paths, so a merge
	// does not compare it and takes the first shard's.
	Arg          string   `json:"arg,omitempty"`
	SourceSHA256 string   `json:"source_sha256"`
	Sets         []string `json:"sets,omitempty"`
	Lanes        string   `json:"lanes,omitempty"`
	Duration     string   `json:"duration,omitempty"`
	Varies       []Vary   `json:"vary"`
	Seed         uint64   `json:"seed"`
	Seeds        int      `json:"seeds"`
	PointCount   int      `json:"point_count"` // points in the whole grid
}

// Plan checks the sweep and loads every point of its shard, reporting every
// problem at once (each naming its flag or field) as an *run.InputError. The work
// (points × seeds × events estimated for each point) is checked against
// Overrides.MaxEvents before anything runs.
func (sw Sweep) Plan() (*Plan, error) {
	if sw.Seeds < 1 || sw.Seeds > MaxSeeds {
		return nil, run.BadInputf("--seeds: want 1 to %d, got %d", MaxSeeds, sw.Seeds)
	}
	sets := sw.Overrides.Sets
	if sw.Overrides.Duration > 0 {
		sets = append(slices.Clip(sets), "duration=") // --duration replaces the file's at every point
	}
	if err := checkVaries(sw.Varies, sets); err != nil {
		return nil, run.BadInput(err)
	}
	if err := sw.Shard.check(); err != nil {
		return nil, run.BadInput(err)
	}
	grid, err := Grid(sw.Varies)
	if err != nil {
		return nil, run.BadInput(err)
	}
	owned := 0
	for i := range grid {
		if sw.Shard.owns(i) {
			owned++
		}
	}
	if owned*sw.Seeds > MaxRuns {
		return nil, run.BadInputf("--vary, --seeds: %s × %s make %d runs, more than the %d one machine keeps; split the sweep with --shard i/n (docs/distributed.md)",
			counted(owned, "point"), counted(sw.Seeds, "seed"), owned*sw.Seeds, MaxRuns)
	}
	base, err := sw.load(nil)
	if err != nil {
		return nil, err
	}
	if last := uint64(sw.Seeds - 1); base.Config.Seed > math.MaxUint64-last {
		if sw.Overrides.Seed == nil {
			return nil, run.BadInputf("%s: seed: %d with --seeds %d: the seeds pass the largest seed, %d", base.File, base.Config.Seed, sw.Seeds, uint64(math.MaxUint64))
		}
		return nil, run.BadInputf("--seed, --seeds: seeds %d to %d + %d pass the largest seed, %d", base.Config.Seed, base.Config.Seed, last, uint64(math.MaxUint64))
	}
	p := &Plan{scenarios: map[int]*scenarios.Scenario{}, shard: sw.Shard}
	p.Header = Header{Scenario: base.Name, Arg: sw.Arg, SourceSHA256: digest(base.Source), Sets: sw.Overrides.Sets,
		Lanes: sw.Overrides.Lanes, Varies: sw.Varies, Seed: base.Config.Seed, Seeds: sw.Seeds, PointCount: len(grid)}
	if sw.Overrides.Duration > 0 {
		p.Duration = sw.Overrides.Duration.String()
	}
	p.Checks = base.Checks
	for _, g := range base.Config.Clients {
		p.ClassNames = append(p.ClassNames, g.Name)
	}
	p.LaneNames = base.Config.LaneNames()
	var errs []error
	seen := map[string]bool{}
	var events int64
	for i, point := range grid {
		if !sw.Shard.owns(i) {
			continue
		}
		s, err := sw.load(point)
		if err != nil {
			if msg := err.Error(); !seen[msg] {
				seen[msg] = true
				errs = append(errs, err)
			}
			if len(errs) > maxPointErrors {
				errs = append(errs[:maxPointErrors], fmt.Errorf("...; more points fail, not listed"))
				break
			}
			continue
		}
		p.scenarios[i] = s
		p.owned = append(p.owned, i)
		events = addWork(events, s.Config.EstimateEvents(), sw.Seeds)
	}
	if len(errs) > 0 {
		return nil, run.BadInput(errors.Join(errs...))
	}
	if max := sw.Overrides.MaxEvents; max > 0 && events > max {
		if len(sw.Varies) == 0 {
			return nil, run.BadInputf("%s: %d seeds are estimated to need %d events, over the budget of %d; use fewer seeds or lift the budget with --max-events %d",
				base.File, sw.Seeds, events, max, run.SuggestedBudget(events))
		}
		return nil, run.BadInputf("%s: the sweep's %s × %s are estimated to need %d events, over the budget of %d; vary fewer values, use fewer seeds, split it with --shard, or lift the budget with --max-events %d",
			base.File, counted(len(p.owned), "point"), counted(sw.Seeds, "seed"), events, max, run.SuggestedBudget(events))
	}
	return p, nil
}

// counted is n things: 1 seed, 2 seeds.
func counted(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// addWork is total plus events × seeds, saturating at the largest int64.
func addWork(total, events int64, seeds int) int64 {
	if events > 0 && (events > math.MaxInt64/int64(seeds) || total > math.MaxInt64-events*int64(seeds)) {
		return math.MaxInt64
	}
	return total + events*int64(seeds)
}

var laneListPath = regexp.MustCompile(`^lanes(\[\d+\])?$`)

// checkVaries refuses two varies of one path, a path both varied and set, and
// varies of what a sweep holds fixed across its points: the seed (--seeds does
// that) and the lanes.
func checkVaries(varies []Vary, sets []string) error {
	var errs []error
	seen := map[string]bool{}
	for _, set := range sets {
		path, _, _ := strings.Cut(set, "=")
		seen[path] = true
	}
	for _, v := range varies {
		switch {
		case seen[v.Path]:
			errs = append(errs, fmt.Errorf("--vary %s: the path is varied twice, or also given by --set or --duration", v.Path))
		case v.Path == "seed":
			errs = append(errs, fmt.Errorf("--vary seed: every point runs the same seeds; give --seeds N (and --seed for the first)"))
		case laneListPath.MatchString(v.Path): // a lane's own settings (lanes[1].burst) may vary
			errs = append(errs, fmt.Errorf("--vary %s: every point runs the same lanes; choose them with --lanes", v.Path))
		}
		seen[v.Path] = true
	}
	return errors.Join(errs...)
}

// load loads the scenario at one point (nil: the base), overrides applied.
func (sw Sweep) load(point []string) (*scenarios.Scenario, error) {
	flags := append([]string(nil), sw.Overrides.Sets...)
	for i, v := range point {
		flags = append(flags, sw.Varies[i].Path+"="+v)
	}
	ov := sw.Overrides
	ov.Sets = flags
	ov.MaxEvents = 0 // the sweep's total is checked instead
	list, err := ov.Load([]string{sw.Arg})
	if err == nil {
		err = ov.Apply(list)
	}
	if err != nil {
		return nil, run.BadInput(errors.New(sw.asVary(err.Error(), point)))
	}
	s := list[0]
	if s.Contention != nil {
		return nil, run.BadInputf("%s: a contention study has no lanes to sweep or to run over seeds; give a limiter comparison", s.File)
	}
	return s, nil
}

// asVary names a point's values in err by their --vary flag rather than the
// --set they were written as.
func (sw Sweep) asVary(msg string, point []string) string {
	for i, v := range point {
		msg = strings.ReplaceAll(msg, "(--set "+sw.Varies[i].Path+"="+v+"):", "(--vary "+sw.Varies[i].Path+"="+v+"):")
	}
	return msg
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// PointResult is what a sweep measured at one point: the runs of its seeds, in order.
type PointResult struct {
	Index  int       `json:"index"`
	Values []string  `json:"values"` // one per Vary
	Runs   []SeedRun `json:"runs"`
}

// SeedRun is one run of a point.
type SeedRun struct {
	Seed  uint64            `json:"seed"`
	Lanes []run.LaneFigures `json:"lanes"`
}

// Result is a whole sweep, or one shard's part of it: the points it ran, in
// grid order.
type Result struct {
	Header
	Shard  string        `json:"shard,omitempty"`
	Points []PointResult `json:"points"`
}

// RunOptions say how to run a plan: Jobs runs at once (0: one per core; never
// more than the plan's runs or MaxJobs), and Progress, when not nil, is told
// of each finished run, from the calling goroutine.
type RunOptions struct {
	Jobs     int
	Progress func(done, total int)
}

type job struct{ point, seed int }

type done struct {
	job
	lanes []run.LaneFigures
	err   error
}

// Run runs every point × seed of the plan in parallel. The result does not
// depend on Jobs: each run is placed by its point and seed. A cancelled ctx
// stops it with ctx's error.
func (p *Plan) Run(ctx context.Context, o RunOptions) (*Result, error) {
	total := len(p.owned) * p.Seeds
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	jobs = max(1, min(jobs, total, MaxJobs))
	cores := laneCores(jobs, total)
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	todo := make(chan job)
	results := make(chan done)
	var wg sync.WaitGroup
	for range jobs {
		wg.Go(func() {
			for j := range todo {
				lanes, err := p.runOne(ctx, j, cores)
				results <- done{j, lanes, err}
			}
		})
	}
	go func() {
		defer close(todo)
		for _, pt := range p.owned {
			for k := range p.Seeds {
				select {
				case todo <- job{pt, k}:
				case <-ctx.Done():
					return
				}
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()
	out := &Result{Header: p.Header, Shard: p.shard.String()}
	byPoint := map[int]int{}
	grid, _ := Grid(p.Varies)
	for _, pt := range p.owned {
		byPoint[pt] = len(out.Points)
		out.Points = append(out.Points, PointResult{Index: pt, Values: grid[pt], Runs: make([]SeedRun, p.Seeds)})
	}
	var firstErr error
	finished := 0
	for d := range results {
		if d.err != nil {
			if firstErr == nil {
				firstErr = d.err
				cancel()
			}
			continue
		}
		out.Points[byPoint[d.point]].Runs[d.seed] = SeedRun{Seed: p.Seed + uint64(d.seed), Lanes: d.lanes}
		finished++
		if o.Progress != nil && firstErr == nil {
			o.Progress(finished, total)
		}
	}
	if firstErr != nil {
		return nil, firstErr
	}
	if err := parent.Err(); err != nil || finished != total {
		// cancelled before every run was handed out
		return nil, cmp.Or(err, context.Canceled)
	}
	return out, nil
}

// laneCores is the most lanes of each run that run at once (run.Options.Cores)
// when jobs runs of total run at once: one, when there are runs enough to
// keep each core busy with its own (four for each job: the last ones, left
// alone at the end, are few), so that no two runs share a core's caches;
// else 0, every run's lanes on every core.
func laneCores(jobs, total int) int {
	if jobs > 1 && total >= 4*jobs {
		return 1
	}
	return 0
}

func (p *Plan) runOne(ctx context.Context, j job, cores int) ([]run.LaneFigures, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := *p.scenarios[j.point]
	c := *s.Config
	c.Seed = p.Seed + uint64(j.seed)
	s.Config = &c
	o, err := run.Scenario(ctx, &s, run.Options{MaxEvents: 0, Cores: cores})
	if err != nil {
		return nil, err
	}
	return run.Measure(o.Result), nil
}
