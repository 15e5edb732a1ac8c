// Package conform holds rlsim's limiters up against real ones: limiter scripts
// on a real Redis, driven in real time with the traffic of a scenario.
//
// Conformance (Check) replays, for each lane, the attempts the exact lane met
// in the simulation (open loop: the same attempts at the same instants, scaled
// to real time) through a limiter script on Redis and compares the two
// decisions request for request, within a stated tolerance.
//
// Each difference is also held to the exact algorithm fed the instants Redis
// decided at (a twin): a difference the twin shares is the clock's, one it
// does not is the script's own (Tally.Unexplained). An answer the calling
// convention does not allow (malformed, or a figure out of its bounds) is no
// decision: it is unexplained too, never explained by the clock. A failed
// call is a store error, decided by the limit's fail mode; a restarted Redis
// restarts the twin. Every call has a deadline (CallTimeout), and a Redis
// that fails every call for GoneAfter has gone away: the run ends with an
// *run.UnfinishedError within Bound.
//
// The race (MeasureRace) sends the same traffic from N replicas, each a
// pool of connections of its own sending every request at its instant,
// through the racy read-then-write and the atomic variants of a script,
// measures the fleet's over-admission and holds it against the topology
// simulation of the same setup (sim.Topology with a shared store of the
// measured round trip).
//
// The reference scripts (Scripts) are embedded Lua; docs/conform.md states
// their calling convention.
//
// Unlike the rest of rlsim this package runs on the wall clock and does network
// I/O: that is its point. It prints nothing; cmd/rlsim does.
package conform
