package sim

import (
	"fmt"
	"strings"
	"time"
)

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

// Words says phase p in a few words, for live views: "shard 2 timing out",
// "login failing open", "replica 3 out of the rotation".
func (p Phase) Words() string {
	store := "the store"
	if p.Shard >= 0 {
		store = fmt.Sprintf("shard %d", p.Shard)
	}
	where := fmt.Sprintf("replica %d", p.Replica)
	if p.Shard >= 0 {
		where += fmt.Sprintf(", shard %d", p.Shard)
	}
	switch p.Kind {
	case PhaseStoreTimeouts:
		return store + " timing out"
	case PhaseStoreRefusing:
		return store + " refusing calls"
	case PhaseStoreAnswering:
		return store + " answering again"
	case PhaseFailOpen:
		return p.Limit + " failing open"
	case PhaseFailClosed:
		return p.Limit + " failing closed"
	case PhaseFailLocal:
		return p.Limit + " falling back to its local limit"
	case PhaseBreakerOpen:
		return "breaker open on " + where
	case PhaseBreakerHalfOpen:
		return "breaker half-open on " + where
	case PhaseBreakerClosed:
		return "breaker closed on " + where
	case PhaseReplicaOut:
		return fmt.Sprintf("replica %d out of the rotation", p.Replica)
	case PhaseReplicaIn:
		return fmt.Sprintf("replica %d back in the rotation", p.Replica)
	case PhaseNoHealthyReplica:
		return "no replica in the rotation: 503 for everyone"
	case PhaseStoreRestart:
		return "the store restarting empty"
	}
	return p.Kind.String()
}

// FleetState is what a topology's phases up to some instant leave: the
// store (or the shards of several) failing, the replicas out of the rotation
// (a replica_out with no replica_in since: one the autoscaler removed while
// out still counts), the breakers open or half-open, and whether none is in
// the rotation.
type FleetState struct {
	StoreFailing, Out, BreakersOpen, BreakersHalfOpen int
	NoHealthy                                         bool
	Sharded                                           bool // StoreFailing counts shards of several
}

// FleetStateOf is the state phases (in time order) leave.
func FleetStateOf(phases []Phase) FleetState {
	failing := map[int]bool{}
	out := map[int]bool{}
	brk := map[[2]int]PhaseKind{}
	var st FleetState
	for _, p := range phases {
		switch p.Kind {
		case PhaseStoreTimeouts, PhaseStoreRefusing:
			failing[p.Shard] = true
		case PhaseStoreAnswering:
			delete(failing, p.Shard)
		case PhaseReplicaOut:
			out[p.Replica] = true
		case PhaseReplicaIn:
			delete(out, p.Replica)
			st.NoHealthy = false
		case PhaseNoHealthyReplica:
			st.NoHealthy = true
		case PhaseBreakerOpen, PhaseBreakerHalfOpen:
			brk[[2]int{p.Replica, p.Shard}] = p.Kind
		case PhaseBreakerClosed:
			delete(brk, [2]int{p.Replica, p.Shard})
		}
	}
	st.StoreFailing, st.Out = len(failing), len(out)
	for shard := range failing {
		st.Sharded = st.Sharded || shard >= 0
	}
	for _, k := range brk {
		if k == PhaseBreakerOpen {
			st.BreakersOpen++
		} else {
			st.BreakersHalfOpen++
		}
	}
	return st
}

// Words says state st, for live views: "all well", or what is failing: "the
// store failing, 4 replicas out, no healthy replica, 2 breakers open".
func (st FleetState) Words() string {
	var parts []string
	count := func(n int, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, one)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	if st.Sharded {
		count(st.StoreFailing, "1 shard failing", "shards failing")
	} else {
		count(st.StoreFailing, "the store failing", "")
	}
	count(st.Out, "1 replica out", "replicas out")
	if st.NoHealthy {
		parts = append(parts, "no healthy replica")
	}
	count(st.BreakersOpen, "1 breaker open", "breakers open")
	count(st.BreakersHalfOpen, "1 breaker half-open", "breakers half-open")
	if len(parts) == 0 {
		return "all well"
	}
	return strings.Join(parts, ", ")
}
