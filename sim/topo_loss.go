package sim

import "time"

// startLoss schedules the store's restarts: each of Store.Restarts, and the
// start of each outage that flushes.
func (f *fleet) startLoss() {
	s := &f.topo.Store
	at := func(t time.Duration) {
		if t <= f.lane.end {
			f.lane.eng.Schedule(t, evRestart, 0, 0)
		}
	}
	for _, t := range s.Restarts {
		at(t)
	}
	for _, o := range s.Outages {
		if o.Flush {
			at(o.From)
		}
	}
}

// restart is the store restarting empty: every shared limit's state, and
// every synced limit's global state, start afresh under the policy that
// applies now. A racy check's write in flight is lost with the rest; a
// synced limit's replicas keep their views and their admissions not yet
// pushed until their next sync.
func (f *fleet) restart() {
	f.result.Restarts++
	f.phase(PhaseStoreRestart, -1, -1, "")
	for i, pl := range f.limits {
		switch pl := pl.(type) {
		case *sharedLimit:
			pl.setPolicy(f.lane.policies[i])
		case *syncedLimit:
			g, err := newTable(pl.rule, f.lane.policies[i], pl.keys)
			mustBuild(err)
			pl.global = g
		}
	}
}

// cut reports whether replica rep is cut off the store at t, and how: hung
// (its call answered by nothing) or refused.
func cut(ps []Partition, rep int32, t time.Duration) (cut, hung bool) {
	for i := range ps {
		p := &ps[i]
		if p.From <= t && t < p.To {
			for _, r := range p.Replicas {
				if int32(r) == rep {
					return true, p.Hung
				}
			}
		}
	}
	return false, false
}
