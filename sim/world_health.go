package sim

import "time"

// HealthCheck is the load balancer's health check of every replica: every
// Interval from 0 on it sends each replica in the fleet a probe, a request to
// Endpoint through that replica's chain. Every limit that would count a
// request to Endpoint counts the probe (a limit with no endpoint filter, or
// one whose Limit.Endpoint is Endpoint), on a key of its own: "global" for a
// global limit, "endpoint:<Endpoint>" for one by endpoint (shared with the
// clients of that endpoint), "<key>:health-probe" otherwise. The health
// endpoint answers from the replica: a probe the chain admits (or delays)
// passes, one it refuses (429 or 503, the store failing closed included)
// fails. A shared limit's probe calls the store as a client's decision does
// (one atomic check, even on a racy store) and its verdict comes back with
// the store's answer or its timeout.
//
// After UnhealthyAfter failed probes in a row a replica leaves the rotation
// (the load balancer routes nothing to it); after HealthyAfter passed probes
// in a row it comes back. A replica that joins the fleet (autoscaler) starts
// in the rotation. With no replica in the rotation every attempt is answered
// 503 by the load balancer, counted as shed (HealthResult.NoHealthy counts
// them apart). Probes are not clients: they are in no client figure, the
// window peaks and the exact limiter included; the limits' states count them.
type HealthCheck struct {
	Endpoint       string
	Interval       time.Duration
	UnhealthyAfter int
	HealthyAfter   int
}

// Partition cuts Replicas off the store in [From, To): their store calls
// fail (refused at once, or with Hung, unanswered until the store's timeout)
// while the other replicas still reach it. A partition cuts shared limits'
// calls and probes; a synced limit's syncs are all or nothing (a topology
// with a partition has no synced limit).
type Partition struct {
	From, To time.Duration
	Replicas []int
	Hung     bool
}

// Health check defaults: the interval, the failures in a row that take a
// replica out and the passes that bring it back, as Kubernetes' probes have
// them (period 10s, failureThreshold 3, successThreshold 1) but for the
// period, which is AWS's Network Load Balancer's 10s too.
const (
	DefaultHealthInterval       = 10 * time.Second
	DefaultHealthUnhealthyAfter = 3
	DefaultHealthHealthyAfter   = 1
	DefaultHealthEndpoint       = "/health"
	// MinHealthInterval is the shortest health check interval.
	MinHealthInterval = time.Millisecond
	// MaxHealthThreshold bounds unhealthy_after and healthy_after.
	MaxHealthThreshold = 1000
)
