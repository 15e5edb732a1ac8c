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

// sliceRing holds slices [first, first+ringSlices) of one lane.
type sliceRing struct {
	cells []slice
	first int64
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
	for i := range lanes {
		t.rows[i].cells = make([]slice, ringSlices)
	}
}

// Record bins one trace record. It implements sim.TraceSink and never fails.
func (t *timeline) Record(r *sim.TraceRecord) error {
	if r.LaneIndex < 0 || r.LaneIndex >= len(t.rows) || r.At < 0 {
		return nil
	}
	row := &t.rows[r.LaneIndex]
	at := int64(r.At / t.width)
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
		release := int64((r.At + r.Delay) / t.width)
		row.at(release).released++ // first: it may move the ring forward
		row.at(release).waitDiff--
		if at >= row.first {
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
	n := int64(len(r.cells))
	if k < r.first {
		return &r.discard
	}
	if k >= r.first+n {
		from := max(r.first, k-2*n+1) // slices before from were forgotten already
		for s := from; s < k-n+1; s++ {
			c := &r.cells[s%n]
			r.waitCarry += int64(c.waitDiff)
			*c = slice{}
		}
		r.first = k - n + 1
	}
	return &r.cells[k%n]
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
	n := int64(len(row.cells))
	waiting := row.waitCarry
	k := row.first
	for ; k < from && k < row.first+n; k++ {
		waiting += int64(row.cells[k%n].waitDiff)
	}
	for j := range cells {
		k := from + int64(j)
		if k < row.first || k >= row.first+n {
			cells[j] = cell{}
			continue
		}
		s := row.cells[k%n]
		waiting += int64(s.waitDiff)
		cells[j] = cell{slice: s, waiting: waiting}
	}
}
