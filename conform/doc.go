// Package conform holds rlsim's limiters up against real ones: limiter scripts
// on a real Redis, driven in real time with the traffic of a scenario.
//
// Conformance (Check) replays, for each lane, the attempts the exact lane met
// in the simulation (open loop: the same attempts at the same instants, scaled
// to real time) through a limiter script on Redis and compares the two
// decisions request for request, within a stated tolerance.
//
// The race (MeasureRace) sends the same traffic from N replicas, each a
// goroutine with its own connection, through the racy read-then-write and the
// atomic variants of a script, measures the fleet's over-admission and holds
// it against the topology simulation of the same setup (sim.Topology with a
// shared store of the measured round trip).
//
// Unlike the rest of rlsim this package runs on the wall clock and does network
// I/O: that is its point. It prints nothing; cmd/rlsim does.
package conform
