package sim

import "github.com/rlsim/rlsim/algorithms"

// limitDecider is limit i's decider in a lane whose chain applies kind with
// policy p: a concurrency limit's table (noted in l.concs), or the lane's
// per-key limiter, in a bounded key table if the lane has one.
func (l *lane) limitDecider(kind LaneKind, i int, p algorithms.Policy) (decider, error) {
	if n := l.cfg.Limits[i].Concurrency; n > 0 {
		l.concs = append(l.concs, i)
		return newConcTable(n, l.pop.keys[i].len()), nil
	}
	d, err := newDecider(l.cfg.ruleOf(kind, i), p, l.pop.keys[i].len())
	if err != nil {
		return nil, FieldErrors{{Field: "limits[" + itoa(i) + "]", Problem: err.Error()}}
	}
	return l.bounded(d, i, p), nil
}

// holdPlaces notes, once the chain has decided an attempt of request r, the
// places of concurrency limits it took: r holds them until its answer.
func (l *lane) holdPlaces(r int32) {
	for _, i := range l.concs {
		if t := l.chain[i].(*concTable); t.took >= 0 {
			l.reqs.all[r].places |= 1 << i
			t.took = -1
		}
	}
}

// releasePlaces gives back every place request r holds: it has its answer.
func (l *lane) releasePlaces(r int32) {
	req := &l.reqs.all[r]
	if req.places == 0 {
		return
	}
	for _, i := range l.concs {
		if req.places&(1<<i) != 0 {
			l.chain[i].(*concTable).release(l.pop.keyOf[i][req.client])
		}
	}
	req.places = 0
}

// inFlightPeaks is, per concurrency limit of the chain, the most requests of
// one key it had in flight at once; nil when the chain has none.
func (l *lane) inFlightPeaks() []LimitCount {
	var out []LimitCount
	for _, i := range l.concs {
		out = append(out, LimitCount{Limit: l.cfg.Limits[i].Name, Count: l.chain[i].(*concTable).most})
	}
	return out
}
