package tui

import (
	"time"

	"github.com/rlsim/rlsim/sim"
)

// timeline is the trace sink of the live view: it bins every lane's trace records
// into time slices of a fixed width, kept per lane in a bounded ring, so drawing a
// frame costs the same whatever the number of clients. Slices are numbered from
// virtual time zero (slice k covers [k×width, (k+1)×width)).
type timeline struct {
	width time.Duration
	rows  []sliceRing
}

// ringSlices is how many slices each lane keeps: far more than a terminal is wide,
// with room for leaky-queue releases scheduled ahead of the clock.
const ringSlices = 4096

// sliceRing holds the latest ringSlices slices of one lane.
type sliceRing struct {
	*sim.Bins[slice]
	// waitCarry is the sum of the waitDiff of slices that left the ring, so the
	// number of requests waiting in a slice is waitCarry plus a prefix sum.
	waitCarry int64
	discard   slice // what records of forgotten slices are counted into
}

// slice counts what happened to attempts in one time slice of one lane. A delayed
// attempt counts as delayed at its arrival slice and as released at its release
// slice; it adds one to waitDiff at the first and takes it away at the second.
type slice struct {
	admitted, delayed, released, refused, shed, dropped uint32
	waitDiff                                            int32
	// shadow counts the attempts of the slice a shadow limit would have refused.
	shadow uint32
}

func newTimeline(width time.Duration) *timeline {
	return &timeline{width: width}
}

// setLanes gives each lane, in order, its row: records name their row by
// their lane's index.
func (t *timeline) setLanes(lanes []sim.LaneKind) {
	t.rows = make([]sliceRing, len(lanes))
	for i := range t.rows {
		row := &t.rows[i]
		row.Bins = sim.NewBins(t.width, ringSlices, nil, func(c *slice) {
			row.waitCarry += int64(c.waitDiff)
			*c = slice{}
		})
	}
}

// Record bins one trace record. It implements sim.TraceSink and never fails.
func (t *timeline) Record(r *sim.TraceRecord) error {
	if r.LaneIndex < 0 || r.LaneIndex >= len(t.rows) || r.At < 0 {
		return nil
	}
	row := &t.rows[r.LaneIndex]
	at := row.Column(r.At)
	switch r.Event {
	case sim.TraceAdmit:
		row.at(at).admitted++
		if r.Shadow != "" {
			row.at(at).shadow++
		}
	case sim.TraceRefuse:
		row.at(at).refused++
	case sim.TraceShed:
		row.at(at).shed++
	case sim.TraceDrop:
		row.at(at).dropped++
	case sim.TraceDelay:
		if r.Shadow != "" {
			row.at(at).shadow++
		}
		release := row.Column(r.At + r.Delay)
		row.at(release).released++ // first: it may move the ring forward
		row.at(release).waitDiff--
		if at >= row.First() {
			c := row.at(at)
			c.delayed++
			c.waitDiff++
		} else {
			row.waitCarry++
		}
	}
	return nil
}

// at is slice k, moving the ring forward (forgetting the oldest slices) if k is
// beyond its end. A slice already forgotten counts into a discarded one.
func (r *sliceRing) at(k int64) *slice {
	if c := r.At(k); c != nil {
		return c
	}
	return &r.discard
}

// cell is what one slice of the view shows.
type cell struct {
	slice
	waiting int64 // delayed attempts waiting in the slice, released in a later one
}

// fill writes into cells the slices [from, from+len(cells)) of row i; slices the
// ring no longer or never held are zero.
func (t *timeline) fill(i int, from int64, cells []cell) {
	row := &t.rows[i]
	waiting := row.waitCarry
	for k := row.First(); k < from; k++ {
		s, ok := row.Held(k)
		if !ok {
			break
		}
		waiting += int64(s.waitDiff)
	}
	for j := range cells {
		s, ok := row.Held(from + int64(j))
		if !ok {
			cells[j] = cell{}
			continue
		}
		waiting += int64(s.waitDiff)
		cells[j] = cell{slice: *s, waiting: waiting}
	}
}
