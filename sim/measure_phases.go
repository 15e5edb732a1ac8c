package sim

import "time"

// PhaseKind names a moment in a topology's run that changes what the fleet
// does: the store slowing past its timeout, a limit failing open or closed, a
// breaker opening, a replica leaving the rotation. The findings tell a run's
// phases in time order; the timeline draws them as bands.
type PhaseKind uint8

const (
	// PhaseStoreTimeouts is the first call of a stretch of failed calls that
	// timed out (the store's latency passed the timeout), PhaseStoreRefusing
	// one that was refused (the store down); PhaseStoreAnswering the first
	// answered call after a stretch of failed ones. Each is at the instant the
	// call was sent.
	PhaseStoreTimeouts PhaseKind = iota
	PhaseStoreRefusing
	PhaseStoreAnswering
	// PhaseFailOpen, PhaseFailClosed and PhaseFailLocal are a limit's first
	// decision by its fail mode in a stretch of store errors (Limit names it).
	PhaseFailOpen
	PhaseFailClosed
	PhaseFailLocal
	// PhaseBreakerOpen is a replica's breaker on a shard opening (from closed
	// or half-open), PhaseBreakerHalfOpen its first decision after the
	// cooldown (it sends probes), PhaseBreakerClosed its last probe's success.
	PhaseBreakerOpen
	PhaseBreakerHalfOpen
	PhaseBreakerClosed
	// PhaseReplicaOut is a replica leaving the load balancer's rotation after
	// failed health checks, PhaseReplicaIn one coming back (Replica names it);
	// PhaseNoHealthyReplica the last one leaving: from then on, until one
	// comes back, every attempt is answered 503.
	PhaseReplicaOut
	PhaseReplicaIn
	PhaseNoHealthyReplica
	// PhaseStoreRestart is the store restarting empty: the shared and synced
	// limits forget what they counted.
	PhaseStoreRestart
)

var phaseEnum = enum[PhaseKind]{"PhaseKind", []string{
	PhaseStoreTimeouts:    "store_timeouts",
	PhaseStoreRefusing:    "store_refusing",
	PhaseStoreAnswering:   "store_answering",
	PhaseFailOpen:         "fail_open",
	PhaseFailClosed:       "fail_closed",
	PhaseFailLocal:        "fail_local",
	PhaseBreakerOpen:      "breaker_open",
	PhaseBreakerHalfOpen:  "breaker_half_open",
	PhaseBreakerClosed:    "breaker_closed",
	PhaseReplicaOut:       "replica_out",
	PhaseReplicaIn:        "replica_in",
	PhaseNoHealthyReplica: "no_healthy_replica",
	PhaseStoreRestart:     "store_restart",
}}

func (k PhaseKind) String() string { return phaseEnum.name(k) }

// Phase is one moment of a topology's run (TopologyResult.Phases), in time
// order. Replica, Shard and Limit say where it happened; -1 and "" mean
// the whole fleet, every shard, no one limit.
type Phase struct {
	At      time.Duration
	Kind    PhaseKind
	Replica int
	Shard   int
	Limit   string
}
