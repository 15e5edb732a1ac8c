package contention

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

func runContention(t *testing.T, c Config) map[sim.JitterKind]map[int]Row {
	t.Helper()
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	cells := map[sim.JitterKind]map[int]Row{}
	for _, r := range res.Rows {
		if cells[r.Jitter] == nil {
			cells[r.Jitter] = map[int]Row{}
		}
		cells[r.Jitter][r.Clients] = r
	}
	return cells
}

func TestContentionOneClient(t *testing.T) {
	const runs = 400
	for _, j := range AllJitters {
		t.Run(j.String(), func(t *testing.T) {
			row := runContention(t, Config{Seed: 7, Clients: []int{1}, Jitters: []sim.JitterKind{j}, Runs: runs})[j][1]
			if row.Calls != 1 {
				t.Errorf("Calls = %v, want 1: a lone client never collides", row.Calls)
			}
			// Four hops of |Normal(10ms, 2ms)|: the fold at zero is 5 sd away, so each
			// hop averages 10ms; their sum has sd 2×2ms, its mean over 400 runs 1/20 of
			// that. Allow 5 sd.
			want := 4 * DefaultHop
			if tol := 5 * 2 * DefaultHopStdDev / 20; (row.Completion - want).Abs() > tol {
				t.Errorf("Completion = %v, want %v ± %v (4 hops)", row.Completion, want, tol)
			}
		})
	}
	t.Run("nearly constant hops", func(t *testing.T) {
		hop := 7 * time.Millisecond
		row := runContention(t, Config{Clients: []int{1}, Jitters: []sim.JitterKind{sim.JitterFull}, Hop: hop, HopStdDev: 1})[sim.JitterFull][1]
		if d := (row.Completion - 4*hop).Abs(); d > 40 {
			t.Errorf("Completion = %v, want 4×%v within 40ns", row.Completion, hop)
		}
	})
}

// TestContentionEveryClientWinsOnce looks inside runs: the row's version counts
// the writes won, and each client stops after its one win.
func TestContentionEveryClientWinsOnce(t *testing.T) {
	var w world
	for _, j := range AllJitters {
		for _, n := range []int{1, 2, 17, 100} {
			w.reset(Config{Seed: 3}.withDefaults(), j, n, 0)
			if err := w.run(context.Background()); err != nil {
				t.Fatal(err)
			}
			var writes int64
			for i, cl := range w.clients {
				if cl.wins != 1 {
					t.Errorf("%v, %d clients: client %d won %d times, want 1", j, n, i, cl.wins)
				}
				if cl.writes != cl.failures+1 {
					t.Errorf("%v, %d clients: client %d wrote %d times after %d failures, want failures+1", j, n, i, cl.writes, cl.failures)
				}
				writes += int64(cl.writes)
			}
			if w.version != int64(n) {
				t.Errorf("%v, %d clients: version = %d at the end, want %d", j, n, w.version, n)
			}
			if writes != w.calls {
				t.Errorf("%v, %d clients: clients wrote %d times, server counted %d calls", j, n, writes, w.calls)
			}
			if w.eng.Pending() != 0 || w.left != 0 {
				t.Errorf("%v, %d clients: %d events pending and %d clients left at the end", j, n, w.eng.Pending(), w.left)
			}
		}
	}
}

// TestContentionBlogOrdering checks the findings of "Exponential Backoff And
// Jitter" at 100 clients: without jitter clients keep colliding, so it does by far
// the most work and takes by far the longest; equal jitter takes longer than full
// and decorrelated; full jitter does less work than decorrelated.
func TestContentionBlogOrdering(t *testing.T) {
	const n = 100
	cells := runContention(t, Config{Seed: 2015, Clients: []int{n}, Runs: 20})
	none, full, equal, decorr := cells[sim.JitterNone][n], cells[sim.JitterFull][n], cells[sim.JitterEqual][n], cells[sim.JitterDecorrelated][n]
	for _, r := range []Row{full, equal, decorr} {
		if none.Calls < 1.5*r.Calls {
			t.Errorf("calls: none %.0f, %v %.0f; want none at least 1.5× every jittered kind", none.Calls, r.Jitter, r.Calls)
		}
		if none.Completion < 4*r.Completion {
			t.Errorf("completion: none %v, %v %v; want none at least 4× every jittered kind", none.Completion, r.Jitter, r.Completion)
		}
	}
	if !(equal.Completion > full.Completion && equal.Completion > decorr.Completion) {
		t.Errorf("completion: equal %v, full %v, decorrelated %v; want equal the slowest jittered kind", equal.Completion, full.Completion, decorr.Completion)
	}
	if !(full.Calls < decorr.Calls) {
		t.Errorf("calls: full %.0f, decorrelated %.0f; want full fewer", full.Calls, decorr.Calls)
	}
}

// TestContentionSuperlinear: every client that loses makes another call, and more
// clients lose more often, so calls per client grow with the clients.
func TestContentionSuperlinear(t *testing.T) {
	sizes := []int{10, 40, 100}
	cells := runContention(t, Config{Seed: 11, Clients: sizes, Runs: 10})
	for _, j := range AllJitters {
		for k := 1; k < len(sizes); k++ {
			lo, hi := cells[j][sizes[k-1]], cells[j][sizes[k]]
			if hi.Calls/float64(hi.Clients) <= lo.Calls/float64(lo.Clients) {
				t.Errorf("%v: %.0f calls for %d clients, %.0f for %d; want more calls per client with more clients",
					j, lo.Calls, lo.Clients, hi.Calls, hi.Clients)
			}
		}
	}
	none, full := cells[sim.JitterNone], cells[sim.JitterFull]
	if g, h := none[100].Calls/none[10].Calls, full[100].Calls/full[10].Calls; g <= h {
		t.Errorf("calls ×%.1f from 10 to 100 clients without jitter, ×%.1f with full jitter; want faster growth without", g, h)
	}
}

func TestContentionDeterminism(t *testing.T) {
	c := Config{Seed: 42, Clients: []int{5, 30}, Runs: 3}
	a, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different results:\n%v\n%v", a, b)
	}
	c.Seed++
	d, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a, d) {
		t.Errorf("seeds 42 and 43 gave identical results: %v", a)
	}
}

func TestRows(t *testing.T) {
	res, err := Run(context.Background(), Config{Clients: []int{3, 1, 2}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range res.Rows {
		got = append(got, fmt.Sprintf("%v/%d", r.Jitter, r.Clients))
	}
	var want []string
	for _, j := range AllJitters {
		for _, n := range []int{3, 1, 2} {
			want = append(want, fmt.Sprintf("%v/%d", j, n))
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rows %v, want %v: every jitter (all four by default), then the client counts as given", got, want)
	}
}

func TestContentionValidate(t *testing.T) {
	ok := Config{Clients: []int{10}}
	tests := []struct {
		name string
		edit func(*Config)
		want []string
	}{
		{"valid", func(*Config) {}, nil},
		{"defaults cap above base", func(c *Config) { c.Base = time.Second }, nil},
		{"no clients", func(c *Config) { c.Clients = nil }, []string{"contention.clients: must list"}},
		{"zero and negative clients", func(c *Config) { c.Clients = []int{10, 0, -3} },
			[]string{"contention.clients[1]: must be positive, got 0", "contention.clients[2]: must be positive, got -3"}},
		{"too many clients", func(c *Config) { c.Clients = []int{MaxClients + 1} }, []string{"contention.clients[0]: must be at most"}},
		{"unknown jitter", func(c *Config) { c.Jitters = []sim.JitterKind{sim.JitterFull, 9} },
			[]string{"contention.jitters[1]: unknown value JitterKind(9) (want none, full, equal, decorrelated, no_backoff)"}},
		{"negative durations", func(c *Config) { c.Base, c.Cap, c.Hop, c.HopStdDev = -1, -2, -3, -4 },
			[]string{"contention.base: must not be negative", "contention.cap: must not be negative", "contention.hop: must not be negative", "contention.hop_stddev: must not be negative"}},
		{"cap below base", func(c *Config) { c.Base, c.Cap = time.Second, time.Millisecond }, []string{"contention.cap: must be at least base (1s), got 1ms"}},
		{"cap below default base", func(c *Config) { c.Cap = time.Millisecond }, []string{"contention.cap: must be at least base (5ms)"}},
		{"negative runs", func(c *Config) { c.Runs = -1 }, []string{"contention.runs: must not be negative, got -1"}},
		{"everything at once", func(c *Config) { c.Clients, c.Runs, c.Hop = []int{0}, -1, -1 },
			[]string{"contention.clients[0]", "contention.runs", "contention.hop:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := ok
			tt.edit(&c)
			err := c.Validate()
			if tt.want == nil {
				if err != nil {
					t.Fatalf("Validate() = %v, want nil", err)
				}
				return
			}
			if err == nil {
				t.Fatalf("Validate() = nil, want %q", tt.want)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Validate() = %q, want it to contain %q", err, w)
				}
			}
			if n := strings.Count(err.Error(), "\n") + 1; n != len(tt.want) {
				t.Errorf("Validate() reported %d problems, want %d: %q", n, len(tt.want), err)
			}
			if _, rerr := Run(context.Background(), c); rerr == nil || rerr.Error() != err.Error() {
				t.Errorf("Run error = %v, want the validation error", rerr)
			}
		})
	}
}

func TestContentionCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, Config{Clients: []int{10}})
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Run(cancelled) error = %v, want context.Canceled", err)
	}

	// A run long enough to reach the check inside it: no jitter, many clients.
	var w world
	w.reset(Config{Seed: 1}.withDefaults(), sim.JitterNone, 2000, 0)
	if err := w.run(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("run(cancelled) error = %v, want context.Canceled", err)
	}
}

func TestContentionNoAllocsPerRun(t *testing.T) {
	c := Config{Seed: 5}.withDefaults()
	var w world
	run := 0
	allocs := testing.AllocsPerRun(20, func() {
		w.reset(c, sim.JitterDecorrelated, 50, run)
		run++
		if err := w.run(context.Background()); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per run once the world has grown, want 0", allocs)
	}
}

func BenchmarkContention(b *testing.B) {
	c := Config{Seed: 5}.withDefaults()
	var w world
	b.ReportAllocs()
	events := 0
	for i := 0; b.Loop(); i++ {
		w.reset(c, sim.JitterFull, 100, i)
		if err := w.run(context.Background()); err != nil {
			b.Fatal(err)
		}
		events = int(w.events)
	}
	b.ReportMetric(float64(events)/b.Elapsed().Seconds(), "events/s")
}

// A lone client never collides: one read and one write, four network hops.
func ExampleRun() {
	res, err := Run(context.Background(), Config{
		Clients: []int{1},
		Jitters: []sim.JitterKind{sim.JitterFull},
		Hop:     10 * time.Millisecond,
		// HopStdDev is tiny so the hops are 10ms to the nanosecond.
		HopStdDev: 1,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r := res.Rows[0]
	fmt.Printf("%d client, %v jitter: %.0f write call, done at %v\n", r.Clients, r.Jitter, r.Calls, r.Completion.Round(time.Millisecond))
	// Output:
	// 1 client, full jitter: 1 write call, done at 40ms
}

// TestContentionSchedules reproduces the schedule of the AWS blog's simulator
// (aws-samples/aws-arch-backoff-simulator, src/backoff_simulator.py): its client
// counts attempt += 1 before sleeping expo(attempt) = min(cap, 2**attempt * base)
// with base 5 and cap 2000 (ms), and NoBackoff sleeps 0. rlsim's own convention,
// base_first, sleeps base×2ⁿ⁻¹.
func TestContentionSchedules(t *testing.T) {
	ms := time.Millisecond
	tests := []struct {
		schedule sim.Schedule
		jitter   sim.JitterKind
		want     []time.Duration // the sleeps after failures 1, 2, 3, ...
	}{
		{sim.ScheduleBrooker, sim.JitterNone, []time.Duration{10 * ms, 20 * ms, 40 * ms, 80 * ms, 160 * ms, 320 * ms, 640 * ms, 1280 * ms, 2000 * ms, 2000 * ms}},
		{sim.ScheduleBaseFirst, sim.JitterNone, []time.Duration{5 * ms, 10 * ms, 20 * ms, 40 * ms, 80 * ms, 160 * ms, 320 * ms, 640 * ms, 1280 * ms, 2000 * ms}},
		{sim.ScheduleBrooker, sim.JitterNoBackoff, []time.Duration{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
		{sim.ScheduleBaseFirst, sim.JitterNoBackoff, []time.Duration{0, 0, 0, 0, 0, 0, 0, 0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.schedule.String()+"/"+tt.jitter.String(), func(t *testing.T) {
			var w world
			w.reset(Config{Clients: []int{1}, Schedule: tt.schedule}.withDefaults(), tt.jitter, 1, 0)
			cl := &w.clients[0]
			draws := cl.jitter
			for i, want := range tt.want {
				cl.failures = i + 1
				if got := w.sleep(cl); got != want {
					t.Errorf("sleep after failure %d = %v, want %v", i+1, got, want)
				}
			}
			if cl.jitter != draws {
				t.Error("an unjittered schedule drew from the jitter stream")
			}
		})
	}
}

// Without backoff, clients collide more than with the plainest exponential one.
func TestContentionNoBackoffIsTheBaseline(t *testing.T) {
	cells := runContention(t, Config{Seed: 1, Clients: []int{30}, Runs: 5, Schedule: sim.ScheduleBrooker,
		Jitters: []sim.JitterKind{sim.JitterNone, sim.JitterNoBackoff}})
	if none, nob := cells[sim.JitterNone][30], cells[sim.JitterNoBackoff][30]; nob.Calls <= none.Calls {
		t.Errorf("30 clients: no backoff made %.1f calls, exponential backoff %.1f; want more", nob.Calls, none.Calls)
	}
}

func TestContentionIntervals(t *testing.T) {
	for _, runs := range []int{1, 2, 7} {
		row := runContention(t, Config{Seed: 5, Clients: []int{20}, Jitters: []sim.JitterKind{sim.JitterFull}, Runs: runs})[sim.JitterFull][20]
		if row.Runs != runs {
			t.Errorf("runs %d: row.Runs = %d", runs, row.Runs)
		}
		if runs == 1 {
			if row.CallsLow != row.Calls || row.CallsHigh != row.Calls || row.CompletionLow != row.Completion || row.CompletionHigh != row.Completion {
				t.Errorf("one run: intervals %v–%v, %v–%v; want the means alone", row.CallsLow, row.CallsHigh, row.CompletionLow, row.CompletionHigh)
			}
			continue
		}
		if !(row.CallsLow < row.Calls && row.Calls < row.CallsHigh) || !(row.CompletionLow < row.Completion && row.Completion < row.CompletionHigh) {
			t.Errorf("runs %d: calls %v in %v–%v, completion %v in %v–%v; want each mean strictly inside a nonempty interval",
				runs, row.Calls, row.CallsLow, row.CallsHigh, row.Completion, row.CompletionLow, row.CompletionHigh)
		}
	}
}

func TestContentionMaxEvents(t *testing.T) {
	c := Config{Seed: 1, Clients: []int{10, 20}, Runs: 2}
	r, err := Run(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	c.MaxEvents = r.Events
	if _, err := Run(context.Background(), c); err != nil {
		t.Errorf("budget of exactly %d events: %v", r.Events, err)
	}
	c.MaxEvents = r.Events - 1
	_, err = Run(context.Background(), c)
	var be *sim.BudgetError
	if !errors.As(err, &be) || !strings.Contains(err.Error(), "in run 2 of 2 with 20 clients, jitter decorrelated") {
		t.Errorf("budget %d of %d: error %v, want a BudgetError in the last run", c.MaxEvents, r.Events, err)
	}
}

func TestHugeTimesRunWithoutPanic(t *testing.T) {
	var w world
	w.reset(Config{Seed: 1, Clients: []int{3}, Base: time.Hour, Cap: time.Hour, Hop: 1_000_000 * time.Hour}.withDefaults(), sim.JitterNone, 3, 0)
	if err := w.run(context.Background()); err != nil {
		t.Fatal(err)
	}
}
