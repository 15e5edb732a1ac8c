package contention

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// EstimateEvents: four events per call; none n²/7 + 3n, no backoff n²/2 + n,
// jitter 10n; times the runs; empty Jitters means all four.
func TestPromiseEstimateEventsFormulas(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    Config
		want int64
	}{
		{"none, 7 clients", Config{Clients: []int{7}, Jitters: []sim.JitterKind{sim.JitterNone}}, 4 * (7 + 21)},
		{"full, 3 clients", Config{Clients: []int{3}, Jitters: []sim.JitterKind{sim.JitterFull}}, 4 * 30},
		{"equal, 3 clients", Config{Clients: []int{3}, Jitters: []sim.JitterKind{sim.JitterEqual}}, 4 * 30},
		{"decorrelated, 3 clients", Config{Clients: []int{3}, Jitters: []sim.JitterKind{sim.JitterDecorrelated}}, 4 * 30},
		{"no backoff, 4 clients, 3 runs", Config{Clients: []int{4}, Jitters: []sim.JitterKind{sim.JitterNoBackoff}, Runs: 3}, 4 * (8 + 4) * 3},
		// all four by default: none 49/7+21=28, then 3×70.
		{"default jitters, 7 clients", Config{Clients: []int{7}}, 4 * (28 + 3*70)},
		{"two counts, 2 runs", Config{Clients: []int{7, 14}, Jitters: []sim.JitterKind{sim.JitterNone}, Runs: 2}, 4 * ((7 + 21) + (28 + 42)) * 2},
	} {
		if got := tc.c.EstimateEvents(); got != tc.want {
			t.Errorf("%s: EstimateEvents() = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestPromiseWithDefaults(t *testing.T) {
	d := Config{Clients: []int{1}}.withDefaults()
	if d.Base != 5*time.Millisecond || d.Cap != 2*time.Second || d.Hop != 10*time.Millisecond || d.HopStdDev != 2*time.Millisecond || d.Runs != 1 {
		t.Errorf("withDefaults = base %v cap %v hop %v sd %v runs %d, want 5ms 2s 10ms 2ms 1", d.Base, d.Cap, d.Hop, d.HopStdDev, d.Runs)
	}
	if len(d.Jitters) != 4 || d.Jitters[0] != sim.JitterNone || d.Jitters[1] != sim.JitterFull || d.Jitters[2] != sim.JitterEqual || d.Jitters[3] != sim.JitterDecorrelated {
		t.Errorf("default jitters = %v, want none full equal decorrelated", d.Jitters)
	}
	set := Config{Base: 1, Cap: 2, Hop: 3, HopStdDev: 4, Runs: 5, Jitters: []sim.JitterKind{sim.JitterEqual}}.withDefaults()
	if set.Base != 1 || set.Cap != 2 || set.Hop != 3 || set.HopStdDev != 4 || set.Runs != 5 || len(set.Jitters) != 1 {
		t.Errorf("withDefaults changed set fields: %+v", set)
	}
}

// Exact messages of Validate, one per problem.
func TestPromiseValidateMessages(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(*Config)
		want string
	}{
		{"too many clients", func(c *Config) { c.Clients = []int{MaxClients + 1} }, "contention.clients[0]: must be at most 100000, got 100001"},
		{"negative client", func(c *Config) { c.Clients = []int{5, -1} }, "contention.clients[1]: must be positive, got -1"},
		{"base over", func(c *Config) { c.Base, c.Cap = MaxTime+1, MaxTime+1 }, "contention.base: must be at most 1h0m0s, got 1h0m0.000000001s\ncontention.cap: must be at most 1h0m0s, got 1h0m0.000000001s"},
		{"hop negative", func(c *Config) { c.Hop = -1 }, "contention.hop: must not be negative, got -1ns"},
		{"cap under base", func(c *Config) { c.Base, c.Cap = 3*time.Millisecond, 2*time.Millisecond }, "contention.cap: must be at least base (3ms), got 2ms"},
		{"cap under default base", func(c *Config) { c.Cap = time.Millisecond }, "contention.cap: must be at least base (5ms), got 1ms"},
		{"negative base, zero cap: no cap problem", func(c *Config) { c.Base = -1 }, "contention.base: must not be negative, got -1ns"},
		{"runs over", func(c *Config) { c.Runs = MaxRuns + 1 }, "contention.runs: must be at most 1000000, got 1000001"},
	} {
		c := Config{Clients: []int{10}}
		tc.edit(&c)
		err := c.Validate()
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: Validate() = %q, want %q", tc.name, err, tc.want)
		}
	}
}

func TestPromiseNsRounds(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want time.Duration
	}{{1.5, 2}, {2.5, 3}, {2.4999, 2}, {-1.5, -2}, {7, 7}, {0.49, 0}} {
		if got := ns(tc.f); got != tc.want {
			t.Errorf("ns(%v) = %v, want %v", tc.f, got, tc.want)
		}
	}
}

// studentT975's table edge: df 30 is the table's last value, 31 the first of the expansion.
func TestPromiseStudentTableEdge(t *testing.T) {
	if got := studentT975(30); got != 2.0423 {
		t.Errorf("studentT975(30) = %v, want the table's 2.0423", got)
	}
	if got := studentT975(2); got != 4.3027 {
		t.Errorf("studentT975(2) = %v, want 4.3027", got)
	}
	// qt(0.975, 31) = 2.039513
	if got := studentT975(31); math.Abs(got-2.039513) > 1e-4 || got == 2.0423 {
		t.Errorf("studentT975(31) = %v, want 2.0395", got)
	}
}

// Three samples 2, 4, 9: mean 5, s² = (9+1+16)/2 = 13, half = 4.3027×√13/√3.
func TestPromiseMeanIntervalThree(t *testing.T) {
	var m meanInterval
	for _, x := range []float64{2, 4, 9} {
		m.add(x)
	}
	mean, low, high := m.bounds()
	half := 4.3027 * math.Sqrt(13) / math.Sqrt(3)
	if math.Abs(mean-5) > 1e-12 || math.Abs(low-(5-half)) > 1e-9 || math.Abs(high-(5+half)) > 1e-9 {
		t.Errorf("bounds(2,4,9) = %v [%v, %v], want 5 [%v, %v]", mean, low, high, 5-half, 5+half)
	}
}

// Two clients with hops of nearly exactly 10ms, no jitter: both read version 0 at
// 10ms, write at 30ms; one wins (reply at 40ms), the other fails (reply at 40ms),
// sleeps the first backoff, then reads, writes and wins after four more hops.
func TestPromiseTwoClientTimeline(t *testing.T) {
	const ms = time.Millisecond
	for _, tc := range []struct {
		schedule sim.Schedule
		jitter   sim.JitterKind
		sleep    time.Duration
	}{
		{sim.ScheduleBaseFirst, sim.JitterNone, 5 * ms}, // base×2⁰
		{sim.ScheduleBrooker, sim.JitterNone, 10 * ms},  // base×2¹
		{sim.ScheduleBaseFirst, sim.JitterNoBackoff, 0},
	} {
		res, err := Run(context.Background(), Config{Clients: []int{2}, Jitters: []sim.JitterKind{tc.jitter}, Schedule: tc.schedule, HopStdDev: 1})
		if err != nil {
			t.Fatal(err)
		}
		r := res.Rows[0]
		want := 8*10*ms + tc.sleep
		if r.Calls != 3 || r.Runs != 1 || r.Clients != 2 || r.Jitter != tc.jitter || (r.Completion-want).Abs() > 40 {
			t.Errorf("%v/%v: row %+v, want 3 calls, completion %v ± 40ns", tc.schedule, tc.jitter, r, want)
		}
		// 2 clients × 4 hops for the first cycle, 4 more for the loser.
		if res.Events != 12 {
			t.Errorf("%v/%v: Events = %d, want 12", tc.schedule, tc.jitter, res.Events)
		}
	}
}

func TestPromiseSeparatedRunsBoundary(t *testing.T) {
	a := Row{Runs: 2, CallsLow: 1, CallsHigh: 2}
	b := Row{Runs: 2, CallsLow: 2.0000001, CallsHigh: 3}
	if !a.Separated(b) || !b.Separated(a) {
		t.Error("Separated of [1,2] and [2.0000001,3] = false, want true")
	}
	b.Runs = 3
	if !a.Separated(b) {
		t.Error("Separated with 2 and 3 runs = false, want true")
	}
	a.Runs = 1
	if a.Separated(b) || b.Separated(a) {
		t.Error("Separated with one run = true, want false")
	}
}
