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
	Jitters   []JitterKind  // backoff kinds to compare; empty means AllJitters
	Base, Cap time.Duration // of the exponential backoff; zero means 5ms and 2s
	Hop       time.Duration // mean one-way network time; zero means 10ms
	HopStdDev time.Duration // zero means 2ms
	Runs      int           // repetitions averaged per cell; zero means 1
	// MaxEvents, when positive, is the event budget of the whole sweep (not part
	// of the study: a guard, as Options.MaxEvents is for a Simulation).
	MaxEvents int64
}

// ContentionRow is one cell of the sweep, averaged over the runs.
type ContentionRow struct {
	Clients    int
	Jitter     JitterKind
	Calls      float64       // write calls until every client succeeded
	Completion time.Duration // when the last client succeeded
}

// ContentionResult lists the sweep in (jitter, clients) order.
type ContentionResult struct {
	Rows   []ContentionRow
	Events int64 // processed by the whole sweep, as its budget counts them
}
