package report

import (
	"fmt"
	"strings"
	"time"

	"github.com/rlsim/rlsim/scenarios"
	"github.com/rlsim/rlsim/sim"
)

// Findings reads the run's comparison in plain words, as Findings does, with
// what its topology did first: replicas counting alone, the store's outages
// and fail modes, racy checks, the autoscaler and synced counting.
func (o Run) Findings() []string {
	if o.Result == nil {
		return nil
	}
	return append(fleetFindings(*o.Result, o.topology()), Findings(*o.Result)...)
}

// topologyFindings says what the topology did, limit by limit; lanes whose
// sentence is the same are named together.
func topologyFindings(r sim.Result, topo *sim.Topology) []string {
	if !hasTopology(r) || topo == nil {
		return nil
	}
	var out []string
	out = append(out, autoscalerFindings(r, topo)...)
	out = append(out, healthFindings(r, topo)...)
	out = append(out, storeFindings(r, topo)...)
	out = append(out, phaseFindings(r)...)
	for i, lim := range r.Limits {
		if s := dividedFinding(r, topo, i); s != "" {
			out = append(out, s)
		}
		switch lim.State {
		case sim.StateLocal:
			out = append(out, byLanes(r, func(l sim.LaneResult) string { return localFinding(r, topo, i, l) })...)
		case sim.StateShared:
			out = append(out, byLanes(r, func(l sim.LaneResult) string { return arrivedFinding(r, i, l) })...)
			out = append(out, byLanes(r, func(l sim.LaneResult) string { return racyFinding(r, topo, i, l) })...)
			out = append(out, byLanes(r, func(l sim.LaneResult) string { return outageFinding(r, topo, i, l) })...)
		case sim.StateSynced:
			out = append(out, byLanes(r, func(l sim.LaneResult) string { return syncedFinding(r, i, l) })...)
		}
	}
	return append(out, remedyFindings(r, topo)...)
}

// byLanes groups the lanes by the sentence say makes of each ("" for none) and
// writes each sentence once, "under <lanes>, <sentence>".
func byLanes(r sim.Result, say func(sim.LaneResult) string) []string {
	groups := map[string][]string{}
	var order []string
	for _, l := range r.Lanes {
		if l.Topology == nil {
			continue
		}
		s := say(l)
		if s == "" {
			continue
		}
		if groups[s] == nil {
			order = append(order, s)
		}
		groups[s] = append(groups[s], fleetLaneName(l))
	}
	var out []string
	for _, s := range order {
		out = append(out, fmt.Sprintf("under %s, %s", list(groups[s]), s))
	}
	return out
}

// limitOf is lane l's figures of limit i across the fleet.
func limitOf(l sim.LaneResult, i int) (sim.LimitTopology, bool) {
	if l.Topology == nil || i >= len(l.Topology.Limits) {
		return sim.LimitTopology{}, false
	}
	return l.Topology.Limits[i], true
}

// windowOf is limit i's window, for the words "in one 1s window".
func windowOf(r sim.Result, i int) string { return FormatDuration(r.Limits[i].Policy.Window) }

// localFinding: with n replicas counting a limit alone, the fleet admitted
// more than the limit, though the busiest replica held less (or as much).
func localFinding(r sim.Result, topo *sim.Topology, i int, l sim.LaneResult) string {
	lt, ok := limitOf(l, i)
	if !ok || lt.Fleet.Count <= lt.Fleet.Limit {
		return ""
	}
	n := replicasDuring(topo, lt.Fleet.Start, lt.Fleet.End)
	if n < 2 {
		return ""
	}
	each := "each counting it alone"
	if r.Limits[i].LocalLimit == sim.LocalDivided {
		each = "each counting its share of it alone"
	}
	s := fmt.Sprintf("with %d local replicas %s the fleet admitted %s× the %s limit of %d: %d in the %s window from t=%s%s",
		n, each, sim.RatioText(lt.Fleet.Count, lt.Fleet.Limit, false), scenarios.Escape(lt.Limit),
		lt.Fleet.Limit, lt.Fleet.Count, windowOf(r, i), FormatDuration(lt.Fleet.Start), keyPhrase(lt.Fleet.Key))
	if lt.Replica.Count < lt.Fleet.Count {
		s += fmt.Sprintf(", while no single replica admitted more than %d (%s×) in any window", lt.Replica.Count, sim.RatioText(lt.Replica.Count, lt.Replica.Limit, false))
	}
	return s
}

// racyFinding: with a read-then-write store that never let a decision
// through on a failure, the fleet over-admitted a shared limit.
func racyFinding(r sim.Result, topo *sim.Topology, i int, l sim.LaneResult) string {
	lt, ok := limitOf(l, i)
	if u := lt.Unavailable; !ok || !topo.Store.Racy || lt.Overshoot == 0 || u.Open+u.Local > 0 {
		return "" // a store that failed open or to a fallback may have let the excess through instead
	}
	return fmt.Sprintf("with read-then-write checks of the store (p99 %s added per decision), %s was over-admitted across the fleet: %d in the %s window from t=%s%s, %s× its limit of %d, %d more than one exact limiter admitted in any window on the same attempts (%d)",
		FormatDuration(l.Topology.StoreLatency.P99), scenarios.Escape(lt.Limit), lt.Fleet.Count, windowOf(r, i),
		FormatDuration(lt.Fleet.Start), keyPhrase(lt.Fleet.Key), sim.RatioText(lt.Fleet.Count, lt.Fleet.Limit, false), lt.Fleet.Limit, lt.Overshoot, lt.Exact.Count)
}

// arrivedFinding: the backend saw more admissions in a window than the limit
// decided in any, and more than the limit: answers of the store, decided in
// order, came back after round trips of different lengths and bunched up.
func arrivedFinding(r sim.Result, i int, l sim.LaneResult) string {
	lt, ok := limitOf(l, i)
	if !ok || lt.Arrived.Count <= lt.Fleet.Count || lt.Arrived.Count <= lt.Arrived.Limit {
		return ""
	}
	st := l.Topology.StoreLatency
	return fmt.Sprintf("the backend saw %d admitted by %s in the %s window from t=%s%s, %s× the limit of %d, though the limit decided at most %d in any window: store round trips of different lengths (p50 %s, p99 %s) reordered the answers in flight and bunched the admissions into the backend",
		lt.Arrived.Count, scenarios.Escape(lt.Limit), windowOf(r, i), FormatDuration(lt.Arrived.Start), keyPhrase(lt.Arrived.Key),
		sim.RatioText(lt.Arrived.Count, lt.Arrived.Limit, false), lt.Arrived.Limit, lt.Fleet.Count, FormatDuration(st.P50), FormatDuration(st.P99))
}

// outageFinding: what a shared limit decided while its store was unavailable,
// and what each class got through then.
func outageFinding(r sim.Result, topo *sim.Topology, i int, l sim.LaneResult) string {
	lt, ok := limitOf(l, i)
	u := lt.Unavailable
	if !ok || u.Open+u.Closed+u.Local == 0 {
		return ""
	}
	lim := r.Limits[i]
	st := limitStore(topo, lim)
	var when []string
	if d := outageTime(st, r.Duration); d > 0 {
		when = append(when, fmt.Sprintf("down %s", FormatDuration(d)))
	}
	if d := partitionTime(topo, r.Duration); d > 0 {
		when = append(when, fmt.Sprintf("cut off from some replicas %s", FormatDuration(d)))
	}
	if st.Store.Timeout > 0 {
		when = append(when, fmt.Sprintf("or slower than its %s timeout", FormatDuration(st.Store.Timeout)))
	}
	when = append(when, storeFullWords(l, lim.Store)...)
	var how string
	switch lim.OnStoreError {
	case sim.FailClosed:
		how = "failed closed"
	case sim.FailLocal:
		how = fmt.Sprintf("fell back to %d per %s on each replica", lim.Fallback.Limit, FormatDuration(lim.Fallback.Window))
		if lim.LocalLimit == sim.LocalDivided {
			how = fmt.Sprintf("fell back to %d per %s divided over the replicas", lim.Fallback.Limit, FormatDuration(lim.Fallback.Window))
		}
	default:
		how = "failed open"
	}
	var classes []string
	for _, c := range lt.Classes {
		if c.Decided > 0 {
			classes = append(classes, fmt.Sprintf("%s made %d attempts and %d got through", scenarios.Escape(c.Name), c.Decided, c.Admitted))
		}
	}
	why := ""
	if len(when) > 0 {
		why = " (" + strings.Join(when, "; ") + ")"
	}
	store := "the store"
	if lim.Store != "" {
		store = storeWords(lim.Store)
	}
	return fmt.Sprintf("while %s was unavailable%s, %s %s: %s", store, why, scenarios.Escape(lt.Limit), how, strings.Join(classes, "; "))
}

// limitStore is topo as limit lim's store makes it: its store in place of
// topo.Store (topology.store's, or the named store lim keeps its state in).
func limitStore(topo *sim.Topology, lim sim.Limit) *sim.Topology {
	if lim.Store == "" {
		return topo
	}
	t := *topo
	for _, ns := range topo.Stores {
		if ns.Name == lim.Store {
			t.Store = ns.Store
		}
	}
	return &t
}

// syncedFinding: how far counting locally and syncing let the fleet go past
// what one exact limiter admits on the same attempts (not past the limit: a
// token bucket's own burst is no overshoot), for how many store calls.
func syncedFinding(r sim.Result, i int, l sim.LaneResult) string {
	lt, ok := limitOf(l, i)
	if !ok {
		return ""
	}
	every, calls := FormatDuration(r.Limits[i].SyncInterval), lt.StoreCalls
	if lt.Overshoot == 0 {
		return fmt.Sprintf("%s, synced every %s for %d store calls, held exactly: at most %d in a %s window, no more than one exact limiter admitted in any window on the same attempts (%d)",
			scenarios.Escape(lt.Limit), every, calls, lt.Fleet.Count, windowOf(r, i), lt.Exact.Count)
	}
	return fmt.Sprintf("%s, synced every %s for %d store calls, overshot by %d: %d in the %s window from t=%s%s, where one exact limiter admitted at most %d in any window on the same attempts (limit %d)",
		scenarios.Escape(lt.Limit), every, calls, lt.Overshoot, lt.Fleet.Count, windowOf(r, i),
		FormatDuration(lt.Fleet.Start), keyPhrase(lt.Fleet.Key), lt.Exact.Count, lt.Fleet.Limit)
}

// autoscalerFindings: each step of the fleet, and what it did to the local
// limits that give every replica the whole limit.
func autoscalerFindings(r sim.Result, topo *sim.Topology) []string {
	var full []string
	for _, lim := range r.Limits {
		if lim.State == sim.StateLocal && lim.LocalLimit == sim.LocalFull {
			full = append(full, scenarios.Escape(lim.Name))
		}
	}
	var out []string
	for k, st := range topo.Replicas[1:] {
		prev := topo.Replicas[k].Count
		if st.At >= r.Duration || st.Count == prev {
			continue
		}
		verb := "grew"
		if st.Count < prev {
			verb = "shrank"
		}
		s := fmt.Sprintf("at t=%s the autoscaler %s the fleet from %d to %d replicas", FormatDuration(st.At), verb, prev, st.Count)
		if len(full) > 0 && st.Count > prev {
			s += fmt.Sprintf(", each enforcing the whole of %s on its own: the fleet may now admit %d times what one replica may, not %d", list(full), st.Count, prev)
		}
		out = append(out, s)
	}
	return out
}

// replicasDuring is the largest fleet in [from, to).
func replicasDuring(topo *sim.Topology, from, to time.Duration) int {
	n := 0
	for k, st := range topo.Replicas {
		next := to
		if k+1 < len(topo.Replicas) {
			next = topo.Replicas[k+1].At
		}
		if st.At < to && next > from {
			n = max(n, st.Count)
		}
	}
	return n
}

// dividedFinding: a limit (or fallback) divided over more replicas than it has
// units per window leaves some replicas nothing: the fleet's real limit.
func dividedFinding(r sim.Result, topo *sim.Topology, i int) string {
	l := r.Limits[i]
	if l.LocalLimit != sim.LocalDivided {
		return ""
	}
	p, what := l.Policy, "limit"
	if l.State == sim.StateShared {
		p, what = l.Fallback, "fallback limit"
	}
	n := 0
	for _, s := range topo.Replicas {
		n = max(n, s.Count)
	}
	if p.Limit >= int64(n) {
		return ""
	}
	w := FormatDuration(p.Window)
	return fmt.Sprintf("the %s %s of %d per %s divided over %d replicas leaves %d of them a share of nothing: the fleet admits at most %d per %s, and a key that routing keeps on one replica gets 1 per %s or none",
		what, scenarios.Escape(l.Name), p.Limit, w, n, int64(n)-p.Limit, p.Limit, w, w)
}
