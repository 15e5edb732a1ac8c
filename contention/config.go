package contention

import (
	"fmt"
	"strings"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// Config is the optimistic-concurrency study of the AWS Architecture Blog's
// "Exponential Backoff And Jitter": Clients clients all start at t=0; each reads one
// versioned row, then writes it with the version it read; the write succeeds only
// if the version is unchanged (and bumps it); a failed client backs off (Retry),
// reads again and writes again. Every network hop takes |Normal(Hop, HopStdDev)|.
// The zero values of the optional fields take the blog's settings (see
// DefaultBase); Run validates c first.
type Config struct {
	Seed      uint64
	Clients   []int            // client counts to sweep, e.g. 10, 20, ... 190
	Jitters   []sim.JitterKind // backoff kinds to compare, sim.JitterNoBackoff included; empty means AllJitters
	Base, Cap time.Duration    // of the exponential backoff; zero means 5ms and 2s
	Schedule  sim.Schedule     // how retry n's sleep grows; zero means sim.ScheduleBaseFirst
	Hop       time.Duration    // mean one-way network time; zero means 10ms
	HopStdDev time.Duration    // zero means 2ms
	Runs      int              // repetitions averaged per cell; zero means 1
	// MaxEvents, when positive, is the event budget of the whole sweep (not part
	// of the study: a guard, as sim.Options.MaxEvents is for a Simulation).
	MaxEvents int64
}

// Row is one cell of the sweep: means over its runs, each with a 95%
// confidence interval for that mean (Student's t over the runs). With one run the
// spread is unknown and each interval is the mean alone.
type Row struct {
	Clients    int
	Jitter     sim.JitterKind
	Runs       int           // runs averaged
	Calls      float64       // mean write calls until every client succeeded
	Completion time.Duration // mean time until the last client succeeded

	CallsLow, CallsHigh           float64       // the 95% interval of Calls
	CompletionLow, CompletionHigh time.Duration // the 95% interval of Completion
}

// Separated reports whether r and o differ beyond run-to-run spread in calls:
// both have at least two runs and their 95% intervals do not overlap.
func (r Row) Separated(o Row) bool {
	return r.Runs >= 2 && o.Runs >= 2 && (r.CallsHigh < o.CallsLow || o.CallsHigh < r.CallsLow)
}

// Result lists the sweep in (jitter, clients) order.
type Result struct {
	Rows   []Row
	Events int64 // processed by the whole sweep, as its budget counts them
}

// Defaults of the contention study, as in the simulator behind the AWS Architecture
// Blog's "Exponential Backoff And Jitter" (aws-samples/aws-arch-backoff-simulator):
// network hops of |Normal(10ms, 2ms)| and backoff with base 5ms and cap 2s.
// Its schedule, base×2ⁿ before retry n, is ScheduleBrooker; the default is
// rlsim's base×2ⁿ⁻¹ (see backoff).
const (
	DefaultHop       = 10 * time.Millisecond
	DefaultHopStdDev = 2 * time.Millisecond
	DefaultBase      = 5 * time.Millisecond
	DefaultCap       = 2 * time.Second

	// MaxClients bounds the memory of one cell of the sweep. It does not
	// bound the time: without jitter the calls grow roughly with the square of the
	// clients, so long sweeps rely on ctx.
	MaxClients = 100_000
	// MaxRuns bounds the runs averaged per cell.
	MaxRuns = 1_000_000
	// MaxTime bounds each duration of a study (base, cap, hop, hop_stddev), so
	// that even MaxClients clients backing off in turn finish within int64
	// nanoseconds.
	MaxTime = time.Hour
)

// AllJitters lists the four jitter kinds in their canonical order.
var AllJitters = []sim.JitterKind{sim.JitterNone, sim.JitterFull, sim.JitterEqual, sim.JitterDecorrelated}

// Validate reports every problem in c at once, each naming its field
// (e.g. "contention.clients[2]: must be positive, got 0").
func (c Config) Validate() error {
	var errs sim.FieldErrors
	bad := func(field, format string, args ...any) {
		errs = append(errs, sim.FieldError{Field: "contention." + field, Problem: fmt.Sprintf(format, args...)})
	}
	if len(c.Clients) == 0 {
		bad("clients", "must list at least one client count")
	}
	for i, n := range c.Clients {
		switch {
		case n <= 0:
			bad(fmt.Sprintf("clients[%d]", i), "must be positive, got %d", n)
		case n > MaxClients:
			bad(fmt.Sprintf("clients[%d]", i), "must be at most %d, got %d", MaxClients, n)
		}
	}
	for i, j := range c.Jitters {
		if names := sim.BackoffNames(); int(j) >= len(names) {
			bad(fmt.Sprintf("jitters[%d]", i), "unknown value %v (want %s)", j, strings.Join(names, ", "))
		}
	}
	for _, d := range []struct {
		field string
		v     time.Duration
	}{{"base", c.Base}, {"cap", c.Cap}, {"hop", c.Hop}, {"hop_stddev", c.HopStdDev}} {
		if d.v < 0 {
			bad(d.field, "must not be negative, got %v", d.v)
		}
		if d.v > MaxTime {
			bad(d.field, "must be at most %v, got %v", MaxTime, d.v)
		}
	}
	if d := c.withDefaults(); c.Base >= 0 && c.Cap >= 0 && d.Cap < d.Base {
		bad("cap", "must be at least base (%v), got %v", d.Base, d.Cap)
	}
	if names := sim.ScheduleNames(); int(c.Schedule) >= len(names) {
		bad("schedule", "unknown value %v (want %s)", c.Schedule, strings.Join(names, ", "))
	}
	if c.Runs < 0 {
		bad("runs", "must not be negative, got %d", c.Runs)
	}
	if c.Runs > MaxRuns {
		bad("runs", "must be at most %d, got %d", MaxRuns, c.Runs)
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// withDefaults fills the zero fields with the documented defaults.
func (c Config) withDefaults() Config {
	if len(c.Jitters) == 0 {
		c.Jitters = AllJitters
	}
	if c.Base == 0 {
		c.Base = DefaultBase
	}
	if c.Cap == 0 {
		c.Cap = DefaultCap
	}
	if c.Hop == 0 {
		c.Hop = DefaultHop
	}
	if c.HopStdDev == 0 {
		c.HopStdDev = DefaultHopStdDev
	}
	if c.Runs == 0 {
		c.Runs = 1
	}
	return c
}

// EstimateEvents is about how many events a run of the study processes: four
// hops per write call, with the calls per cell fitted to the study's own curves
// (none: about n²/7 + 3n for n clients, as every client collides in every round;
// no backoff at all: every client retries at once each round, about n²/2 + n;
// with jitter about 10n).
func (c Config) EstimateEvents() int64 {
	c = c.withDefaults()
	var calls float64
	for _, j := range c.Jitters {
		for _, n := range c.Clients {
			f := float64(n)
			switch j {
			case sim.JitterNone:
				calls += f*f/7 + 3*f
			case sim.JitterNoBackoff:
				calls += f*f/2 + f
			default:
				calls += 10 * f
			}
		}
	}
	e := 4 * calls * float64(c.Runs)
	if e > 1<<62 {
		return 1 << 62
	}
	return int64(e)
}
