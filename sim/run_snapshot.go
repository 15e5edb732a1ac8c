package sim

import (
	"cmp"
	"slices"
	"time"
)

// Snapshot returns every lane's live figures. It allocates one slice, and
// more for a lane with concurrency limits, criticalities or partitions.
func (s *Simulation) Snapshot() []LaneSnapshot {
	snaps := make([]LaneSnapshot, len(s.lanes))
	for i, l := range s.lanes {
		c := &l.m.counts
		snap := LaneSnapshot{
			Lane: l.kind, Name: l.name, Now: l.eng.Now(),
			Attempts: c.Attempts, Admitted: c.Admitted, Refused: c.Refused, Delayed: c.Delayed,
			Shed: c.Shed, Dropped: c.Dropped, Succeeded: c.Succeeded,
			Peak: WindowPeak(l.m.peak.Worst(l.pop.keys[0].name)),
		}
		snap.OverLimit = overRate(snap.Peak, snap.Lane) && !snap.NotLimiting()
		if l.backend != nil {
			snap.InFlight = l.backend.inFlight()
		}
		if l.conc != nil {
			snap.Limit = l.conc.Limit()
		}
		snap.KeyInFlight = l.inFlightPeaks()
		snap.Criticality = l.liveCriticality()
		if l.parts != nil {
			snap.Partitions = l.parts.result()
		}
		snaps[i] = snap
	}
	return snaps
}

// ColumnWidth is the virtual time one column of a live view (the TUI, the
// playground) shows: a round tenth of the first limit's window (1, 2 or 5
// times a power of ten, at least 1ms), so a window spans about ten columns.
func ColumnWidth(cfg Config) time.Duration {
	w := time.Second
	if len(cfg.Limits) > 0 && cfg.Limits[0].Policy.Window > 0 {
		w = cfg.Limits[0].Policy.Window
	}
	d := max(w/10, time.Millisecond)
	p := time.Duration(1)
	for p*10 <= d {
		p *= 10
	}
	switch {
	case d >= 5*p:
		return 5 * p
	case d >= 2*p:
		return 2 * p
	}
	return p
}

// Phases returns lane i's phases so far (TopologyResult.Phases), in time
// order; nil without a topology. It allocates one slice.
func (s *Simulation) Phases(i int) []Phase {
	if i < 0 || i >= len(s.lanes) || s.lanes[i] == nil || s.lanes[i].fleet == nil {
		return nil
	}
	ps := make([]Phase, len(s.lanes[i].fleet.result.Phases)) // empty, not nil, with a fleet
	copy(ps, s.lanes[i].fleet.result.Phases)
	slices.SortStableFunc(ps, func(a, b Phase) int { return cmp.Compare(a.At, b.At) })
	return ps
}
