package sim

import "time"

// HealthResult is what a topology's health check did over a run.
type HealthResult struct {
	// Probes counts the probes whose verdict came back in the run; Failed
	// those the chain refused.
	Probes, Failed int64
	// Out is, per replica (up to the largest fleet), the time it spent out of
	// the rotation, up to the end of the run (a replica the autoscaler
	// removes stops counting then).
	Out []time.Duration
	// Removals counts the times a replica left the rotation.
	Removals int
	// NoHealthy counts the attempts the load balancer answered 503 because no
	// replica was in the rotation (counted as shed in the lane's figures);
	// NoHealthyFor is the time with none in it.
	NoHealthy    int64
	NoHealthyFor time.Duration
	// Down are the intervals with no replica in the rotation, in time order
	// (the first maxPhases of them; the last open one ends with the run).
	Down []Span
}

// Span is an interval [From, To) of virtual time.
type Span struct {
	From, To time.Duration
}
