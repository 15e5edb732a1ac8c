package sim

import (
	"cmp"
	"slices"
	"time"

	"github.com/rlsim/rlsim/sim/window"
)

// admitted counts an admission of request r reaching the backend at now: in
// every limit's Arrived peak, and in its fleet and replica peaks unless they
// counted it when the store decided it (countDecided).
func (f *fleet) admitted(r int32, now time.Duration, cost int64) {
	f.admittedBy(f.lane.reqs.all[r].client, f.replicaOf[r], f.calls[r].counted, now, cost)
}

// admittedBy is admitted for an admission of client c decided by replica
// rep, counted says when the store decided it.
func (f *fleet) admittedBy(c, rep int32, counted bool, now time.Duration, cost int64) {
	f.lane.m.later.catchUp(now)
	same := &f.same
	for i := range f.limits {
		if f.lane.pop.skips(i, c) {
			continue
		}
		k := f.lane.pop.keyOf[i][c]
		if !same.arrived {
			f.arrived[i].Add(k, now, cost)
		}
		if counted {
			continue
		}
		if i > 0 || !same.lane {
			f.fleetPeak[i].Add(k, now, cost)
		}
		if !same.replica {
			f.repPeak[i].Add(rep*int32(f.lane.pop.keys[i].len())+k, now, cost)
		}
	}
}

// topologyResult is the fleet's figures at the end.
func (f *fleet) topologyResult(cfg *Config) *TopologyResult {
	for _, pl := range f.limits {
		if sl, ok := pl.(*sharedLimit); ok {
			sl.dropLeases(0, f.most)
		}
	}
	r := f.result
	slices.SortStableFunc(r.Phases, func(a, b Phase) int { return cmp.Compare(a.At, b.At) })
	f.store.account(&r)
	f.breakerResult(&r.Remedies)
	r.Replicas, r.Routing = f.most, f.topo.Routing
	if cfg.Duration > 0 {
		r.StoreCallsPerSecond = float64(r.StoreCalls) / cfg.Duration.Seconds()
	}
	r.StoreLatency = Percentiles(f.latency.Percentiles())
	end := f.lane.eng.Now() // so far, or the whole run once it is done
	if f.lane.done() {
		end = f.lane.end
	}
	r.Health = f.healthResult(end)
	f.lane.m.later.catchUp(f.lane.eng.Now())
	for i, pl := range f.limits {
		lt := *pl.stats()
		keys := &f.lane.pop.keys[i]
		fleet, rep, arrived := f.peaksOf(i)
		lt.Fleet = WindowPeak(fleet.Worst(func(id int32) string { return keys.name(id) }))
		lt.Replica = WindowPeak(rep.Worst(func(id int32) string { return keys.name(id % int32(keys.len())) }))
		if rep.BestKey() >= 0 {
			lt.BusiestReplica = int(rep.BestKey()) / keys.len()
		}
		lt.Arrived = WindowPeak(arrived.Worst(func(id int32) string { return keys.name(id) }))
		exact := &f.exact[i].peak
		if f.same.exact {
			exact = fleet
		}
		lt.Exact = WindowPeak(exact.Worst(func(id int32) string { return keys.name(id) }))
		lt.Overshoot = max(0, lt.Fleet.Count-lt.Exact.Count)
		lt.Classes = append([]OutageClass(nil), lt.Classes...)
		r.Limits = append(r.Limits, lt)
	}
	return &r
}

// samePeaks says which windows of a fleet count exactly the admissions of
// another, so that only that other is kept (Fleet, Replica and Arrived read
// from it): with no shared limit an admission is counted when it reaches the
// backend, so Arrived counts what Fleet does; the first limit's Fleet counts
// what the lane's peak does, with a store or without (same keys, instants and
// costs: at the store's decision, countDecided and metrics.decidedAt, else as
// it reaches the backend, admittedBy and metrics.admitted); with one replica,
// Replica's keys are Fleet's. And the exact twin of a limit in a store that
// never fails nor forgets (twinIsStore) decides as the store, so its window
// is Fleet (exact: the twin is not asked).
type samePeaks struct {
	arrived, lane, replica, exact bool
}

func newSamePeaks(f *fleet) samePeaks {
	if samePeaksOff {
		return samePeaks{}
	}
	return samePeaks{arrived: !f.shared, lane: true, replica: f.most == 1, exact: f.twinIsStore()}
}

// twinIsStore reports whether the exact twin of the fleet's one limit is fed
// what the store's table is, in the same order, so that it decides as the
// store does: one shared limit counting every client, never a shadow nor
// pushed a rule, decided at the store on every attempt by an atomic check,
// in a store that never fails (no outage, partition, timeout, queue limit or
// change), forgets (no restart, no memory limit), nor is spared a call (no
// breaker, refusal cache or lease), with no health probe.
func (f *fleet) twinIsStore() bool {
	l, st := f.lane, &f.topo.Store
	if len(l.cfg.Limits) != 1 || l.cfg.Limits[0].State != StateShared || l.cfg.Limits[0].Shadow || l.pop.scoped ||
		len(l.cfg.Rules) > 0 || f.health != nil || len(f.topo.Stores) > 0 {
		return false
	}
	return !st.Racy && len(st.Outages) == 0 && len(st.Partitions) == 0 && st.Timeout == 0 && st.QueueLimit == 0 &&
		len(st.Changes) == 0 && len(st.Restarts) == 0 && st.MaxMemory == 0 &&
		st.Breaker.Failures == 0 && !st.RefusalCache && st.Lease == 0
}

// peaksOf is limit i's fleet, replica and arrival windows, as kept (samePeaks).
func (f *fleet) peaksOf(i int) (fleet, rep, arrived *window.Tracker) {
	fleet, rep, arrived = &f.fleetPeak[i], &f.repPeak[i], &f.arrived[i]
	if i == 0 && f.same.lane {
		fleet = f.lane.m.peak
	}
	if f.same.replica {
		rep = fleet
	}
	if f.same.arrived {
		arrived = fleet
	}
	return fleet, rep, arrived
}
