package sim

import "time"

// ContentionConfig is the optimistic-concurrency study of the AWS Architecture Blog's
// "Exponential Backoff And Jitter": Clients clients all start at t=0; each reads one
// versioned row, then writes it with the version it read; the write succeeds only
// if the version is unchanged (and bumps it); a failed client backs off (Retry),
// reads again and writes again. Every network hop takes |Normal(Hop, HopStdDev)|.
// The zero values of the optional fields take the blog's settings (see
// DefaultContentionBase); RunContention validates c first.
type ContentionConfig struct {
	Seed      uint64
	Clients   []int         // client counts to sweep, e.g. 10, 20, ... 190
	Jitters   []JitterKind  // backoff kinds to compare, JitterNoBackoff included; empty means AllJitters
	Base, Cap time.Duration // of the exponential backoff; zero means 5ms and 2s
	Schedule  Schedule      // how retry n's sleep grows; zero means ScheduleBaseFirst
	Hop       time.Duration // mean one-way network time; zero means 10ms
	HopStdDev time.Duration // zero means 2ms
	Runs      int           // repetitions averaged per cell; zero means 1
	// MaxEvents, when positive, is the event budget of the whole sweep (not part
	// of the study: a guard, as Options.MaxEvents is for a Simulation).
	MaxEvents int64
}

// Schedule is how the contention study's sleep before retry n (n = 1 for the
// first retry) grows, before jitter.
type Schedule uint8

const (
	// ScheduleBaseFirst is rlsim's convention: min(cap, base×2ⁿ⁻¹), base first.
	ScheduleBaseFirst Schedule = iota
	// ScheduleBrooker is min(cap, base×2ⁿ), as `expo(n)` of Marc Brooker's simulator
	// behind the AWS Architecture Blog's "Exponential Backoff And Jitter"
	// (aws-samples/aws-arch-backoff-simulator): the first sleep is 2×base.
	ScheduleBrooker
)

// ContentionRow is one cell of the sweep: means over its runs, each with a 95%
// confidence interval for that mean (Student's t over the runs). With one run the
// spread is unknown and each interval is the mean alone.
type ContentionRow struct {
	Clients    int
	Jitter     JitterKind
	Runs       int           // runs averaged
	Calls      float64       // mean write calls until every client succeeded
	Completion time.Duration // mean time until the last client succeeded

	CallsLow, CallsHigh           float64       // the 95% interval of Calls
	CompletionLow, CompletionHigh time.Duration // the 95% interval of Completion
}

// Separated reports whether r and o differ beyond run-to-run spread in calls:
// both have at least two runs and their 95% intervals do not overlap.
func (r ContentionRow) Separated(o ContentionRow) bool {
	return r.Runs >= 2 && o.Runs >= 2 && (r.CallsHigh < o.CallsLow || o.CallsHigh < r.CallsLow)
}

// ContentionResult lists the sweep in (jitter, clients) order.
type ContentionResult struct {
	Rows   []ContentionRow
	Events int64 // processed by the whole sweep, as its budget counts them
}
