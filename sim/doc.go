// Package sim replays a world of clients against rate limiters on a virtual
// clock, once per lane, and measures what each lane did to the traffic. It does
// no I/O, reads no wall clock and prints nothing; cmd/rlsim, report and tui are
// built on it.
//
// # The model
//
// A Config describes the world: client groups (Clients) with their identities,
// arrival patterns, costs and retry habits; the chain of limits a request
// passes (Limits), each counted by a key (user, ip, tenant...); an optional
// backend with a capacity, a queue and a service time that may change over time
// (Backend); and the lanes to compare (Lanes). Validate reports every problem
// of a Config at once as FieldErrors whose paths are written as in scenario
// files ("clients[2].retry.cap"); sim owns the defaults and the semantic
// checks, the scenarios package only maps them onto file lines.
//
// # Lanes
//
// A lane is one limiting strategy applied to the whole population. The lane
// registry (Lanes, LaneKind.Info) is the one table of what lanes exist: for
// each its name in scenario files, its titles, its class, whether it is in the
// default set (DefaultLanes, the eight of the design) and how it is built. A
// lane is of one of three classes:
//
//   - RateLimiter: a per-key algorithm of package algorithms applied to every
//     limit of the chain (fixed window, sliding log, sliding window counter,
//     token bucket, leaky bucket, GCRA);
//   - ConcurrencyLimiter: a bound on requests in flight to the backend instead
//     of the chain (AIMD, and Vegas, which runs only when named);
//   - ClientGate: a client-side throttle in front of the chain, enforced by a
//     rate-limiter lane (client throttling).
//
// Adding a lane is adding a row to the registry, its algorithm, and its
// settings if it has any.
//
// One kind may run as several lanes side by side, to size a limit: Variants
// give such lanes names of their own (Config.LaneName; LaneResult.Name,
// LaneSnapshot.Name and TraceRecord.LaneName carry it, TraceRecord.LaneIndex
// the lane's position) and settings of their own; Overrides naming a lane give
// it its own policy for a limit of the chain.
//
// # Virtual time and determinism
//
// Time is an integer number of nanoseconds since the start (time.Duration),
// never a float. Each lane runs its own event loop; events at the same instant
// run in the order they were scheduled, so a run is reproducible. All
// randomness comes from streams seeded by Config.Seed and a label, one per
// client and purpose, so the lanes see the same arrivals and differ only where
// their decisions differ: the same Config gives byte-identical results. The
// event queue, its clock and the random streams are the layer below, package
// sim/engine, a leaf that imports nothing of rlsim: what an event means (its
// kind), and everything a lane does, is sim's.
//
// # Running
//
// Run simulates a Config to its end and returns a Result: per lane the
// attempts, admissions, refusals, sheds, delays and drops, the most admitted in
// any window, latencies, per-class outcomes and time series. New and
// Simulation.RunUntil step a run in virtual time for live views, and
// Simulation.Snapshot reads the figures so far. Options.Trace receives every
// attempt as it happens; Options.MaxEvents bounds the work.
//
// # Layout
//
// Each file's name starts with its role, and the roles are layers, from the
// bottom up: world < traffic < chain < config < measure < lane = topo = fast <
// run. world is the vocabulary (Config and its types, Options, the marks and
// columns a timeline counts, names, field
// errors); traffic the clients, their arrivals, keys and retries; chain the
// limiters a request meets and the lane registry; config what is known of a
// Config before running it (defaults, validation, variants, estimates);
// measure the tallies and results; lane, topo and fast one lane running, its
// loop with its backend, fleet and store, and fast paths, which call each
// other; run the Simulation over all lanes. A file uses only its own layer and
// those below: TestLayersPointDown (layers_test.go) holds the code to this
// order, from its one table.
//
// The other kind of study, optimistic-concurrency backoff, is package
// contention; it shares this package's random streams, retry schedules and
// event queue (Stream, Retry.Backoff, Queue).
package sim
