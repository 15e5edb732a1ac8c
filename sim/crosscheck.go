package sim

import (
	"slices"
	"time"
)

// The cross-check is an exact sliding log of the first limit's keys fed every
// decision of the lane (the attempt, and whether the lane let it through). As
// long as it has agreed with the lane on every decision, and every admission it
// made reached the lane's most-admitted tracker at the same instant, its log
// holds exactly what that tracker's windows hold: the same admissions, the same
// window, the same limit. Until then it keeps no log of its own and decides from
// the tracker's windows; the first time the two could differ (a disagreement, or
// an admission that reaches the tracker late, as the leaky bucket's delayed
// ones) it copies them and goes on alone. A lane that never disagrees and never
// delays (a sliding log, or every rate lane while under its limit) so decides
// each attempt once, not twice, and holds no second log.

// crossCheck is the cross-check's log: the tracker's windows until it forks.
type crossCheck struct {
	own     bool        // log holds the cross-check's own windows; before, the peak tracker's are its
	log     peakTracker // its own windows, once own
	pending bool        // the last admission it made has not reached the tracker yet
	key     int32       // that admission's key, time and cost
	at      time.Duration
	cost    int64
}

// slidingLogCheck feeds the cross-check the attempt the lane just decided, and
// counts the decisions on which they disagree.
func (m *metrics) slidingLogCheck(key int32, now time.Duration, cost int64, admitted bool) {
	m.decisions++
	c := &m.check
	if !c.own {
		if c.pending {
			m.forkCheck() // a decision before the last admission reached the tracker
		} else {
			k := &m.peak.keys[key]
			m.peak.expire(k, key, now) // the tracker would at its next admission: no change to what it measures
			allow := cost <= m.peak.limit-k.sum
			if allow == admitted {
				c.pending, c.key, c.at, c.cost = allow, key, now, cost
				return
			}
			m.forkCheck()
		}
	}
	if c.log.allow(key, now, cost) != admitted {
		m.disagreed++
	}
}

// admittedToPeak tells the cross-check that the lane's tracker is about to add
// an admission of key: the one the cross-check made last, or another, which
// parts them.
func (m *metrics) admittedToPeak(key int32, now time.Duration, cost int64) {
	c := &m.check
	if c.own {
		return
	}
	if c.pending && c.key == key && c.at == now && c.cost == cost {
		c.pending = false
		return
	}
	m.forkCheck()
}

// forkCheck gives the cross-check its own log: the tracker's windows and the
// admission it made that the tracker has not added yet.
func (m *metrics) forkCheck() {
	c := &m.check
	c.log, c.own = m.peak.windows(), true
	if c.pending {
		c.log.push(&c.log.keys[c.key], admission{c.at, c.cost})
		c.pending = false
	}
}

// windows is an untimed tracker (newUntimedTracker) holding p's windows as they are.
func (p *peakTracker) windows() peakTracker {
	w := newUntimedTracker(p.window, p.limit, 0)
	w.keys = slices.Clone(p.keys)
	w.slab.entries = slices.Clone(p.slab.entries)
	for i, f := range p.slab.free {
		w.slab.free[i] = slices.Clone(f)
	}
	return w
}
