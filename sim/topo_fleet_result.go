package sim

import (
	"cmp"
	"slices"
	"time"
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
	for i := range f.limits {
		if f.lane.pop.skips(i, c) {
			continue
		}
		k := f.lane.pop.keyOf[i][c]
		f.arrived[i].Add(k, now, cost)
		if !counted {
			f.fleetPeak[i].Add(k, now, cost)
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
		lt.Fleet = WindowPeak(f.fleetPeak[i].Worst(func(id int32) string { return keys.name(id) }))
		lt.Replica = WindowPeak(f.repPeak[i].Worst(func(id int32) string { return keys.name(id % int32(keys.len())) }))
		if f.repPeak[i].BestKey() >= 0 {
			lt.BusiestReplica = int(f.repPeak[i].BestKey()) / keys.len()
		}
		lt.Arrived = WindowPeak(f.arrived[i].Worst(func(id int32) string { return keys.name(id) }))
		lt.Exact = WindowPeak(f.exact[i].peak.Worst(func(id int32) string { return keys.name(id) }))
		lt.Overshoot = max(0, lt.Fleet.Count-lt.Exact.Count)
		lt.Classes = append([]OutageClass(nil), lt.Classes...)
		r.Limits = append(r.Limits, lt)
	}
	return &r
}
