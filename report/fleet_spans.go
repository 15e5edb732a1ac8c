package report

import (
	"cmp"
	"slices"
	"time"

	"github.com/rlsim/rlsim/sim"
)

// fleetKind is what a stretch of one replica's time was: out of the load
// balancer's rotation (failed health checks), not in the fleet (the
// autoscaler had fewer replicas), or its breaker on a shard open or half-open.
type fleetKind uint8

const (
	fleetOut fleetKind = iota
	fleetAbsent
	fleetBreakerOpen
	fleetBreakerHalfOpen
	fleetKinds
)

// fleetLabels name the kinds in the legends, PNG and HTML alike.
var fleetLabels = [fleetKinds]string{
	fleetOut:             "replica out of the rotation",
	fleetAbsent:          "replica not in the fleet",
	fleetBreakerOpen:     "breaker open",
	fleetBreakerHalfOpen: "breaker half-open",
}

// fleetSpan is a stretch of one replica's time (Shard is the breaker's; -1
// for the others).
type fleetSpan struct {
	Kind           fleetKind
	Replica, Shard int
	sim.Span
}

// fleetSpans are lane l's stretches of its replicas, in order of replica,
// kind, shard and start, up to end: from its phases, each replica out of the
// rotation from its replica_out to its replica_in (or to the autoscaler
// removing it, which takes its health with it, or to end), each breaker open
// from its breaker_open to its breaker_half_open, half-open from then to its
// breaker_closed or next breaker_open (adjacent stretches of one kind merged,
// empty ones dropped: a probe refused at once reopens it at the instant it
// turned half-open); and from topo, each replica's times out of the fleet.
func fleetSpans(l sim.LaneResult, topo *sim.Topology, end time.Duration) []fleetSpan {
	if l.Topology == nil || topo == nil {
		return nil
	}
	var out []fleetSpan
	add := func(s fleetSpan) {
		if s.To <= s.From {
			return
		}
		for i := len(out) - 1; i >= 0; i-- {
			p := &out[i]
			if p.Kind == s.Kind && p.Replica == s.Replica && p.Shard == s.Shard && p.To == s.From {
				p.To = s.To
				return
			}
		}
		out = append(out, s)
	}
	type key struct{ replica, shard int }
	outAt := map[int]time.Duration{}
	brk := map[key]sim.Phase{} // each breaker's open or half-open phase under way
	for _, p := range l.Topology.Phases {
		switch p.Kind {
		case sim.PhaseReplicaOut:
			if from, ok := outAt[p.Replica]; ok { // the autoscaler removed it since: it came back in the rotation
				add(fleetSpan{fleetOut, p.Replica, -1, sim.Span{From: from, To: leaves(topo, p.Replica, from, p.At)}})
			}
			outAt[p.Replica] = p.At
		case sim.PhaseReplicaIn:
			if from, ok := outAt[p.Replica]; ok {
				add(fleetSpan{fleetOut, p.Replica, -1, sim.Span{From: from, To: min(p.At, leaves(topo, p.Replica, from, end))}})
				delete(outAt, p.Replica)
			}
		case sim.PhaseBreakerOpen, sim.PhaseBreakerHalfOpen, sim.PhaseBreakerClosed:
			k := key{p.Replica, p.Shard}
			if prev, ok := brk[k]; ok {
				add(fleetSpan{breakerKind(prev.Kind), p.Replica, p.Shard, sim.Span{From: prev.At, To: p.At}})
				delete(brk, k)
			}
			if p.Kind != sim.PhaseBreakerClosed {
				brk[k] = p
			}
		}
	}
	for rep, from := range outAt {
		add(fleetSpan{fleetOut, rep, -1, sim.Span{From: from, To: leaves(topo, rep, from, end)}})
	}
	for k, p := range brk {
		add(fleetSpan{breakerKind(p.Kind), k.replica, k.shard, sim.Span{From: p.At, To: end}})
	}
	for rep := range l.Topology.Replicas {
		for _, s := range absentSpans(topo, rep, end) {
			add(fleetSpan{fleetAbsent, rep, -1, s})
		}
	}
	slices.SortFunc(out, func(a, b fleetSpan) int {
		return cmp.Or(cmp.Compare(a.Replica, b.Replica), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Shard, b.Shard), cmp.Compare(a.From, b.From))
	})
	return out
}

// breakerKind is the stretch a breaker phase starts.
func breakerKind(k sim.PhaseKind) fleetKind {
	if k == sim.PhaseBreakerHalfOpen {
		return fleetBreakerHalfOpen
	}
	return fleetBreakerOpen
}

// leaves is when replica rep, in the fleet at from, next leaves it (end if never).
func leaves(topo *sim.Topology, rep int, from, end time.Duration) time.Duration {
	for _, st := range topo.Replicas {
		if st.At > from && st.At < end && st.Count <= rep {
			return st.At
		}
	}
	return end
}

// absentSpans are the times before end replica rep was not in the fleet.
func absentSpans(topo *sim.Topology, rep int, end time.Duration) []sim.Span {
	var out []sim.Span
	for i, st := range topo.Replicas {
		if st.At >= end {
			break
		}
		to := end
		if i+1 < len(topo.Replicas) {
			to = min(end, topo.Replicas[i+1].At)
		}
		if st.Count <= rep && to > st.At {
			if n := len(out); n > 0 && out[n-1].To == st.At {
				out[n-1].To = to
			} else {
				out = append(out, sim.Span{From: st.At, To: to})
			}
		}
	}
	return out
}
